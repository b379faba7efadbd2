import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../db/client.ts';

/**
 * Migration 0010 folds the several open Device Offline alerts a portal could hold before into its
 * oldest (docs/alerts.md). A fresh embedded database is migrated up to 0009, given the old state by
 * hand, then migrated to 0010 by the real migrator from the real migration files.
 */
const migrations = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
const FOLD = '0010_alert_acknowledgment';

let dir: string;
let database: Database;

async function migrateUpTo(last: string): Promise<void> {
  const journal = JSON.parse(readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((e) => e.tag === last);
  expect(upTo).toBeGreaterThan(0);
  writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo + 1) }));
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  await migrate(database.db as never, { migrationsFolder: dir });
}

const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-fold-'));
  cpSync(migrations, dir, { recursive: true });
  database = await openDatabase({ dataDir: 'memory://' });
});

afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 0010', () => {
  it("folds each portal's open Device Offline alerts into its oldest, keeping devices and cases", async () => {
    const journal = JSON.parse(readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const before = journal.entries[journal.entries.findIndex((e) => e.tag === FOLD) - 1].tag;
    await migrateUpTo(before);

    await database.exec(`
      insert into tenants (id, name) values (1, 'Harbor Co'), (2, 'Other Co');
      insert into portals (tenant_id, id, name, api_key_enc, webhook_secret_enc) values
        (1, 1, 'Fairview Mall', 'k', 's'), (1, 2, 'Dockside', 'k', 's'), (2, 3, 'Elsewhere', 'k', 's');
      insert into devices (tenant_id, id, portal_id, external_id, name, device_type, status, last_report_at, status_since, first_seen_at)
      select case when g <= 6 then 1 else 2 end, g, case when g <= 4 then 1 when g <= 6 then 2 else 3 end, 'x' || g, 'Device ' || g, 0, 0, now(), now(), now()
        from generate_series(1, 8) g;
      -- Fairview Mall: a resolved alert (1), three open ones (2, 3, 4); alert 4 held device 3 twice over with alert 3.
      insert into alerts (tenant_id, id, portal_id, alert_type, offline_count, created_at, resolved_at) values
        (1, 1, 1, 0, 1, now() - interval '3 days', now() - interval '2 days'),
        (1, 2, 1, 0, 1, now() - interval '3 hours', null),
        (1, 3, 1, 0, 2, now() - interval '2 hours', null),
        (1, 4, 1, 0, 1, now() - interval '1 hour', null),
        (1, 5, 1, 1, 9, now(), null),
        (1, 6, 2, 0, 2, now(), null),
        (2, 7, 3, 0, 1, now(), null),
        (2, 8, 3, 0, 1, now(), null);
      insert into alert_devices (tenant_id, alert_id, device_id) values
        (1, 1, 1), (1, 2, 1), (1, 3, 2), (1, 3, 3), (1, 4, 3), (1, 4, 4), (1, 6, 5), (1, 6, 6), (2, 7, 7), (2, 8, 8);
      insert into cases (tenant_id, id, portal_id, alert_id, offline_count) values (1, 1, 1, 3, 2), (1, 2, 1, 1, 1);
    `);

    await migrateUpTo(FOLD);

    const alerts = await rows<{ id: number; portal: number; type: number; count: number; open: boolean }>(
      sql`select id, portal_id as portal, alert_type as type, offline_count as count, resolved_at is null as open from alerts order by id`,
    );
    expect(alerts).toEqual([
      { id: 1, portal: 1, type: 0, count: 1, open: false },
      { id: 2, portal: 1, type: 0, count: 4, open: true },
      { id: 5, portal: 1, type: 1, count: 9, open: true },
      { id: 6, portal: 2, type: 0, count: 2, open: true },
      { id: 7, portal: 3, type: 0, count: 2, open: true },
    ]);
    const held = await rows<{ alert: number; devices: number[] }>(
      sql`select alert_id as alert, array_agg(device_id order by device_id) as devices from alert_devices group by alert_id order by alert_id`,
    );
    expect(held).toEqual([
      { alert: 1, devices: [1] },
      { alert: 2, devices: [1, 2, 3, 4] },
      { alert: 6, devices: [5, 6] },
      { alert: 7, devices: [7, 8] },
    ]);
    expect(await rows(sql`select id, alert_id as alert from cases order by id`)).toEqual([
      { id: 1, alert: 2 },
      { id: 2, alert: 1 },
    ]);
    const [open] = await rows<{ n: number }>(
      sql`select count(*)::int as n from (select portal_id from alerts where alert_type = 0 and resolved_at is null group by portal_id having count(*) > 1) x`,
    );
    expect(open.n).toBe(0);
    expect(await rows(sql`select acked_at, acked_by_user_id, acked_by_name from alerts where id = 2`)).toEqual([
      { acked_at: null, acked_by_user_id: null, acked_by_name: null },
    ]);
  });
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { usesPostgres, workerDatabaseUrl } from './database.ts';

/**
 * Migration 0014 turns an existing status history into partitions: a database migrated up to 0013 with
 * periods in it (open, closed this month, long ago, and past the months created ahead), then migrated on.
 */
const migrations = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');
const before = mkdtempSync(path.join(tmpdir(), 'vigil-migrations-'));
let database: Database | undefined;
const postgresName = () => `${new URL(workerDatabaseUrl()).pathname.slice(1)}_partitions`;
async function onPostgres(statement: string) {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
afterAll(async () => {
  await database?.close();
  if (usesPostgres()) await onPostgres(`drop database if exists "${postgresName()}" with (force)`);
  rmSync(before, { recursive: true, force: true });
});

async function freshDatabase(): Promise<Database> {
  if (!usesPostgres()) return openDatabase({ dataDir: 'memory://' });
  await onPostgres(`drop database if exists "${postgresName()}" with (force)`);
  await onPostgres(`create database "${postgresName()}"`);
  const url = new URL(workerDatabaseUrl());
  url.pathname = `/${postgresName()}`;
  return openDatabase({ databaseUrl: url.toString() });
}

describe('migration 0014 (status history partitions)', () => {
  it('copies an existing history into the partitions, keeping ids, and the sequence goes on from them', async () => {
    cpSync(migrations, before, { recursive: true });
    const journalFile = path.join(before, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < '0014');
    writeFileSync(journalFile, JSON.stringify(journal));
    database = await freshDatabase();
    const db = database.db;
    if (database.kind === 'pglite') {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(db as never, { migrationsFolder: before });
    } else {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      await migrate(db as never, { migrationsFolder: before });
    }
    await db.execute(sql`insert into tenants (name) values ('T')`);
    const [{ tenant }] = await queryRows<{ tenant: number }>(db, sql`select id as tenant from tenants`);
    await db.execute(sql`insert into portals (tenant_id, name, api_key_enc, webhook_secret_enc) values (${tenant}, 'P', 'x', 'y')`);
    await db.execute(sql`insert into devices (tenant_id, portal_id, external_id, name, device_type, status, last_report_at, status_since, first_seen_at)
                         select ${tenant}, 1, 'd' || g, 'D', 0, 1, now(), now(), now() from generate_series(1, 3) g`);
    const now = new Date();
    const month = (n: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + n, 10)).toISOString();
    // device 1: closed long ago, closed this month, open; device 2: closed a year ahead (past the months created), open; device 3: open.
    const periods: [number, string, string | null][] = [
      [1, month(-30), month(-24)],
      [1, month(-24), month(0)],
      [1, month(0), null],
      [2, month(0), month(12)],
      [2, month(12), null],
      [3, month(-1), null],
    ];
    for (const [device, started, ended] of periods)
      await db.execute(sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at, ended_at)
                           values (${tenant}, ${device}, 1, 1, ${started}::timestamptz, ${ended}::timestamptz)`);

    await migrateDatabase(database);
    const rows = await queryRows<{ id: number; partition: string }>(
      db,
      sql`select id::int, tableoid::regclass::text as partition from device_status_periods order by id`,
    );
    const monthOf = (iso: string) => `device_status_periods_y${iso.slice(0, 4)}m${iso.slice(5, 7)}`;
    expect(rows).toEqual([
      { id: 1, partition: 'device_status_periods_before' },
      { id: 2, partition: monthOf(month(0)) },
      { id: 3, partition: 'device_status_periods_open' },
      { id: 4, partition: 'device_status_periods_open' },
      { id: 5, partition: 'device_status_periods_open' },
      { id: 6, partition: 'device_status_periods_open' },
    ]);
    const [{ kind }] = await queryRows<{ kind: string }>(
      db,
      sql`select relkind::text as kind from pg_class where oid = 'device_status_periods'::regclass`,
    );
    expect(kind).toBe('p');
    await db.execute(
      sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at) values (${tenant}, 3, 1, 0, now())`,
    );
    const [{ max }] = await queryRows<{ max: number }>(db, sql`select max(id)::int as max from device_status_periods`);
    expect(max).toBe(7);
    // The foreign key to devices holds on the partitioned table.
    await expect(
      db.execute(
        sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at) values (${tenant}, 99, 1, 0, now())`,
      ),
    ).rejects.toThrow();
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { verifyPassword } from '../security/passwords.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { reliabilityByPortal } from '../modules/stats/index.ts';
import { seedDemo, type SeededDemo } from './demo-seed.ts';
import { startDemoSimulator } from './demo-simulator.ts';

let t: TestApp;
let demo: SeededDemo | null;
let seconds: number;
const count = async (query: ReturnType<typeof sql>) => Number((await queryRows<{ n: string | number }>(t.database.db, query))[0].n);

beforeAll(async () => {
  t = await createTestApp();
  const started = performance.now();
  demo = await seedDemo(t.deps, 'demo-test-pass-1234');
  seconds = (performance.now() - started) / 1000;
}, 120_000);
afterAll(() => t.close());

describe('demo seed', () => {
  it('runs quickly and only on an empty database', async () => {
    expect(demo).not.toBeNull();
    expect(seconds).toBeLessThan(30);
    expect(await seedDemo(t.deps)).toBeNull();
    expect(await count(sql`select count(*) as n from tenants`)).toBe(1);
  });

  it('creates the superAdmin and one user per role, all signing in with the one password', async () => {
    const rows = await queryRows<{ email: string; roles: string[]; tenant_id: number | null; password_hash: string }>(
      t.database.db,
      sql`select email, roles, tenant_id, password_hash from users order by id`,
    );
    expect(rows.map((r) => [r.email, r.roles, r.tenant_id === null ? null : 'tenant'])).toEqual([
      ['admin@vigil.demo', ['superAdmin'], null],
      ['admin@northwind.demo', ['Admin'], 'tenant'],
      ['pm@northwind.demo', ['Project Manager'], 'tenant'],
      ['sales@northwind.demo', ['Salesman'], 'tenant'],
    ]);
    expect(await verifyPassword(rows[1].password_hash, 'demo-test-pass-1234')).toBe(true);
    const [tenant] = await queryRows<{ name: string; subscription_status: string }>(
      t.database.db,
      sql`select name, subscription_status from tenants`,
    );
    expect(tenant).toEqual({ name: 'Northwind Security', subscription_status: 'active' });
  });

  it('creates a dozen portals with a few hundred devices of all five types, some offline now', async () => {
    expect(await count(sql`select count(*) as n from portals`)).toBe(12);
    const devices = await count(sql`select count(*) as n from devices`);
    expect(devices).toBeGreaterThanOrEqual(200);
    expect(devices).toBeLessThanOrEqual(500);
    expect(await count(sql`select count(distinct device_type) as n from devices`)).toBe(5);
    const offline = await count(sql`select count(*) as n from devices where status = 0`);
    expect(offline).toBeGreaterThan(0);
    expect(offline).toBeLessThan(devices * 0.2);
    // current state agrees with the open period of every device (a status-2 one from maintenance_since in maintenance)
    expect(
      await count(
        sql`select count(*) as n from devices d join device_status_periods p on p.device_id = d.id and p.ended_at is null
             where p.status <> case when d.maintenance_since is null then d.status else 2 end
                or p.started_at <> coalesce(d.maintenance_since, d.status_since)`,
      ),
    ).toBe(0);
    expect(
      await count(
        sql`select count(*) as n from devices d where (select count(*) from device_status_periods p where p.device_id = d.id and p.ended_at is null) <> 1`,
      ),
    ).toBe(0);
  });

  it('spreads 30 days of flapping history, most devices above 97% online, a few bad ones', async () => {
    const now = t.clock.now();
    const from = new Date(now.getTime() - 30 * 86_400_000);
    const [span] = await queryRows<{ first: Date | string; days: string | number }>(
      t.database.db,
      sql`select min(started_at) as first, count(distinct date_trunc('day', started_at)) as days from device_status_periods where status = 0`,
    );
    expect(new Date(span.first).getTime()).toBeLessThan(from.getTime() + 2 * 86_400_000);
    expect(Number(span.days)).toBeGreaterThanOrEqual(25);
    const shares = await queryRows<{ share: number }>(
      t.database.db,
      sql`select sum(extract(epoch from (coalesce(ended_at, ${now.toISOString()}::timestamptz) - started_at)) * status) / sum(extract(epoch from (coalesce(ended_at, ${now.toISOString()}::timestamptz) - started_at))) as share
            from device_status_periods group by device_id`,
    );
    const good = shares.filter((s) => Number(s.share) > 0.97).length;
    expect(good / shares.length).toBeGreaterThan(0.8);
    expect(shares.some((s) => Number(s.share) < 0.9)).toBe(true);
    // no overlapping periods for any device
    expect(
      await count(sql`select count(*) as n from device_status_periods a join device_status_periods b on a.device_id = b.device_id and a.id < b.id
      and a.started_at < coalesce(b.ended_at, 'infinity') and b.started_at < coalesce(a.ended_at, 'infinity')`),
    ).toBe(0);
    const scores = await reliabilityByPortal(t.database.db, { tenantId: demo!.tenantId, from, to: now });
    expect(scores.size).toBe(12);
    for (const score of scores.values()) expect(score).toBeGreaterThan(80);
  });

  it('creates cases of every status with comments, alerts of both types, licenses and reports', async () => {
    expect(await count(sql`select count(distinct case_type) as n from cases`)).toBe(5);
    expect(await count(sql`select count(*) as n from cases c where not exists (select 1 from comments m where m.case_id = c.id)`)).toBe(0);
    expect(
      await count(
        sql`select count(*) as n from devices d where d.open_case_id is not null and not exists (select 1 from case_devices cd where cd.device_id = d.id and cd.case_id = d.open_case_id)`,
      ),
    ).toBe(0);
    expect(await count(sql`select count(distinct alert_type) as n from alerts`)).toBe(2);
    expect(await count(sql`select count(*) as n from alerts where resolved_at is not null`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from alerts where alert_type = 0 and resolved_at is null`)).toBe(
      await count(sql`select count(distinct portal_id) as n from devices where status = 0`),
    );
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(await count(sql`select count(*) as n from licenses where end_date < ${today}::date`)).toBeGreaterThan(0);
    expect(
      await count(sql`select count(*) as n from licenses where end_date >= ${today}::date and end_date <= ${today}::date + 90`),
    ).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from reports`)).toBeGreaterThanOrEqual(3);
  });

  it('schedules weekly firmware updates and a camera replacement in progress on two devices', async () => {
    const windows = await queryRows<{ recurrence: number; device_count: number; reason: string; created_by_name: string }>(
      t.database.db,
      sql`select recurrence, cardinality(device_ids) as device_count, reason, created_by_name from maintenance_windows order by id`,
    );
    expect(windows).toEqual([
      { recurrence: 2, device_count: 0, reason: 'Weekly firmware updates', created_by_name: 'Dana Whitfield' },
      { recurrence: 0, device_count: 2, reason: 'Lobby camera replacement', created_by_name: 'Dana Whitfield' },
    ]);
    expect(await count(sql`select count(*) as n from devices where maintenance_since is not null`)).toBe(2);
    expect(await count(sql`select count(*) as n from device_status_periods where status = 2 and ended_at is null`)).toBe(2);
  });
});

describe('demo simulator', () => {
  it('reports every demo device through signed webhooks this server accepts', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const sim = await startDemoSimulator(t.deps, `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    try {
      await sim!.tick();
      expect(sim!.stats.errors).toBe(0);
      expect(sim!.stats.devicesAccepted).toBe(await count(sql`select count(*) as n from devices where status = 1`));
      // online devices all reported now: nothing for the offline sweep to catch
      expect(
        await count(
          sql`select count(*) as n from devices where status = 1 and last_report_at < ${new Date(t.clock.now().getTime() - 60_000).toISOString()}::timestamptz`,
        ),
      ).toBe(0);
    } finally {
      await sim?.stop();
    }
  });
});

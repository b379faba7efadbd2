import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { usesPostgres } from '../../test/database.ts';
import { createPortal, createTenant } from '../../test/factories.ts';
import { reported, sendWebhook } from '../../test/kits/webhooks/webhook-test-kit.ts';
import { autovacuumOffWarning, maintainPglite, type TableMaintenance } from './pglite-maintenance.job.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const jobRunsStats = async () => {
  await t.database.db.execute(sql`select pg_stat_force_next_flush()`);
  const [row] = await queryRows<{ dead: number | string; vacuumed: boolean; analyzed: boolean; rows: number }>(
    t.database.db,
    sql`select s.n_dead_tup as dead, s.last_vacuum is not null as vacuumed, s.last_analyze is not null as analyzed, c.reltuples as rows
          from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = 'job_runs'`,
  );
  return { ...row, dead: Number(row.dead), rows: Number(row.rows) };
};

const fill = (from: number, count: number) =>
  t.database.db.execute(
    sql`insert into job_runs (job, tick) select 'maintenance-test', g::text from generate_series(${from}::int, ${from + count - 1}::int) g`,
  );

describe('embedded database maintenance', () => {
  it('on PGlite vacuums and analyzes a table past the thresholds, analyzes one with changes only, and leaves quiet tables alone; on PostgreSQL does nothing', async () => {
    if (usesPostgres()) {
      // autovacuum keeps PostgreSQL: nothing to do here whatever the counters say
      await fill(1, 2_000);
      await t.database.db.execute(sql`delete from job_runs where job = 'maintenance-test'`);
      expect(await maintainPglite(t.database)).toEqual([]);
      return;
    }
    await maintainPglite(t.database); // whatever earlier files left behind
    await fill(1, 10_000);
    const first = await maintainPglite(t.database);
    expect(first).toContainEqual(expect.objectContaining({ table: 'public.job_runs', action: 'vacuum analyze' }));
    expect(await jobRunsStats()).toMatchObject({ dead: 0, vacuumed: true, analyzed: true, rows: 10_000 });

    // 1,500 changed rows of 10,000: past analyze's 50 + 10 %, under vacuum's 50 + 20 % dead rows.
    await t.database.db.execute(sql`update job_runs set finished_at = now() where job = 'maintenance-test' and tick::int <= 1500`);
    const second = await maintainPglite(t.database);
    expect(second.filter((m) => m.table === 'public.job_runs')).toEqual([expect.objectContaining({ action: 'analyze' })]);

    // 5,000 of 10,000 deleted: past the dead rows' threshold.
    await t.database.db.execute(sql`delete from job_runs where job = 'maintenance-test' and tick::int > 5000`);
    expect(await maintainPglite(t.database)).toContainEqual(
      expect.objectContaining({ table: 'public.job_runs', action: 'vacuum analyze' }),
    );
    expect(await jobRunsStats()).toMatchObject({ dead: 0, rows: 5_000 });

    expect(await maintainPglite(t.database)).toEqual([]);
    await t.database.db.execute(sql`delete from job_runs where job = 'maintenance-test'`);
  });

  it('on PGlite maintains a big table in bounded steps: heap passes as dead rows come, the indexes only past 20 %, analyze from a small sample', async () => {
    if (usesPostgres()) return;
    // Every table counts as big here; job_runs stands for the status history.
    const limits = { bigTableBytes: 0, heapPassDead: 500, heapPassInserted: 2_000, analyzeMaxChanged: 1_000, bigTableStatisticsTarget: 10 };
    const jobRuns = (done: TableMaintenance[]) => done.filter((m) => m.table === 'public.job_runs').map((m) => m.action);
    await maintainPglite(t.database); // whatever earlier tests left behind
    await fill(1, 10_000);
    expect(jobRuns(await maintainPglite(t.database, limits))).toEqual(['vacuum heap', 'analyze']);
    expect(await jobRunsStats()).toMatchObject({ dead: 0, vacuumed: true, rows: 10_000 });
    expect(await queryRows<{ target: string }>(t.database.db, sql`select current_setting('default_statistics_target') as target`)).toEqual([
      { target: '100' },
    ]);

    // 1,000 dead rows of 10,000: far from autovacuum's 20 %, past the heap pass's 500; the indexes wait.
    await t.database.db.execute(sql`update job_runs set finished_at = now() where job = 'maintenance-test' and tick::int <= 1000`);
    expect(jobRuns(await maintainPglite(t.database, limits))).toEqual(['vacuum heap']);
    expect(await jobRunsStats()).toMatchObject({ dead: 0 });

    // 1,500 more: the dead rows the heap passes left reach 20 % (2,500 > 2,050): the indexes are cleaned too.
    await t.database.db.execute(
      sql`update job_runs set finished_at = now() where job = 'maintenance-test' and tick::int between 1001 and 2500`,
    );
    expect(jobRuns(await maintainPglite(t.database, limits))).toEqual(['vacuum heap', 'vacuum indexes', 'analyze']);
    expect(jobRuns(await maintainPglite(t.database, limits))).toEqual([]);
    await t.database.db.execute(sql`delete from job_runs where job = 'maintenance-test'`);
    await maintainPglite(t.database);
  });

  it('on PGlite works on the status history one partition at a time: after many flips only the open periods need their indexes cleaned', async () => {
    if (usesPostgres()) return;
    const portal = await createPortal(t, await createTenant(t));
    const start = new Date();
    const ids = Array.from({ length: 200 }, (_, i) => `dev-${i}`);
    for (let round = 0; round <= 5; round++) {
      const at = new Date(start.getTime() + round * 60_000);
      t.clock.set(at.toISOString());
      const status = round % 2 === 0 ? 1 : 0;
      expect((await sendWebhook(t, portal, reported(ids.map((externalId) => ({ externalId, status, at }))))).status).toBe(202);
    }
    // Every table counts as big here: 1,000 periods closed, 1,000 dead rows, all of them in the open periods' partition.
    const limits = { bigTableBytes: 0, heapPassDead: 100, heapPassInserted: 500, analyzeMaxChanged: 500, bigTableStatisticsTarget: 10 };
    const history = (await maintainPglite(t.database, limits)).filter((m) => m.table.startsWith('public.device_status_periods'));
    expect(history.map((m) => m.table)).not.toContain('public.device_status_periods');
    const month = `public.device_status_periods_y${start.getUTCFullYear()}m${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
    const steps = (table: string) => history.filter((m) => m.table === table).map((m) => m.action);
    expect(steps('public.device_status_periods_open')).toEqual(['vacuum heap', 'vacuum indexes', 'analyze']);
    expect(steps(month)).toEqual(['vacuum heap', 'analyze']);
    expect(history.filter((m) => m.action === 'vacuum indexes').map((m) => m.table)).toEqual(['public.device_status_periods_open']);
    await maintainPglite(t.database);
  });

  it('warns at start when PostgreSQL runs without autovacuum (the server vacuums only the embedded database)', async () => {
    const warning = await autovacuumOffWarning(t.database);
    if (!usesPostgres()) {
      expect(warning).toBeUndefined();
      return;
    }
    const [row] = await queryRows<{ autovacuum: string }>(t.database.db, sql`select current_setting('autovacuum') as autovacuum`);
    if (row.autovacuum === 'off') expect(warning).toMatch(/^PostgreSQL's autovacuum is off: /);
    else expect(warning).toBeUndefined();
  });
});

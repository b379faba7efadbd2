/**
 * CPU of each maintenance step on the status history after a storm of flips (not a test, not the bench
 * harness): the real app in this process on PGlite in memory, DEVICES devices with PERIODS closed
 * periods each over the last 90 days written set-based (the bench's M: 50,000 devices, 2.3 million
 * periods), the maintenance job run until it has nothing left to do, then FLIPS devices change status
 * through webhooks of 1,000 and the maintenance job runs once with the given limits (every step on a
 * table of the status history printed with the process's CPU time: PGlite's thread included).
 *
 *   npx tsx apps/server/test/tools/maintenance-steps.ts
 * Env: DEVICES (50000), PERIODS (46), FLIPS (25000), BIG_TABLE_MB (64; 0: every table is big), INDEXES=1 (the
 * periods' index cleanup is run on each of their tables after the job, whatever the thresholds, and timed),
 * ANALYZE=1 (the sampled analyze of each of their big tables too).
 */
import { sql } from 'drizzle-orm';
import { loadavg } from 'node:os';
import { queryRows } from '../../src/db/client.ts';
import { DEFAULT_LIMITS, maintainPglite } from '../../src/db/pglite-maintenance.ts';
import { createPortal, createTenant, type TestPortal } from '../factories.ts';
import { createTestApp } from '../harness.ts';
import { reported, sendWebhook } from '../kits/webhooks/webhook-test-kit.ts';

const DEVICES = Number(process.env.DEVICES ?? 50_000);
const PERIODS = Number(process.env.PERIODS ?? 46);
const FLIPS = Number(process.env.FLIPS ?? 25_000);
const PER_MESSAGE = 1_000;
const limits = { ...DEFAULT_LIMITS, bigTableBytes: Number(process.env.BIG_TABLE_MB ?? 64) * 1024 * 1024 };

// The priority gate waits on unreferenced timers: this keeps the process alive while it does.
setInterval(() => undefined, 1_000);
const t = await createTestApp();
const now = new Date();
t.clock.set(now.toISOString());
const tenant = await createTenant(t);
const portals: TestPortal[] = [];
for (let i = 0; i < DEVICES / PER_MESSAGE; i++) portals.push(await createPortal(t, tenant));
const created = (k: number) => new Date(now.getTime() - 10 * 60_000 + k * 1000);
for (const portal of portals) {
  const devices = Array.from({ length: PER_MESSAGE }, (_, i) => ({ externalId: `d${i}`, status: 1 as const, at: created(0) }));
  await sendWebhook(t, portal, reported(devices));
}
// The history before the devices' open periods: PERIODS closed periods each, back to back over 90 days.
const span = (90 * 86_400) / PERIODS;
await t.database.db.execute(sql`
  insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at, ended_at)
  select d.tenant_id, d.id, d.portal_id, (k % 2)::smallint,
         ${created(0).toISOString()}::timestamptz - (${PERIODS}::int - k + 1) * ${span}::float8 * interval '1 second',
         ${created(0).toISOString()}::timestamptz - (${PERIODS}::int - k) * ${span}::float8 * interval '1 second'
    from devices d, generate_series(1, ${PERIODS}::int) k
   where d.tenant_id = ${tenant.id}`);
const periodTables = async () =>
  queryRows<{ name: string; rows: number; mb: number }>(
    t.database.db,
    sql`select c.relname as name, c.reltuples::bigint as rows, round(pg_total_relation_size(c.oid) / 1048576.0)::int as mb
          from pg_class c where c.relkind = 'r' and c.relname like 'device_status_periods%' order by 1`,
  );
for (let i = 0; i < 10 && (await maintainPglite(t.database, limits)).length > 0; i++);
console.log('settled:', JSON.stringify(await periodTables()));

for (let k = 0; k < FLIPS / PER_MESSAGE; k++) {
  const at = created(10 + k);
  t.clock.set(at.toISOString());
  const devices = Array.from({ length: PER_MESSAGE }, (_, i) => ({ externalId: `d${i}`, status: 0 as const, at }));
  await sendWebhook(t, portals[k % portals.length], reported(devices));
}

// Every statement of the job timed as CPU of this process (PGlite's thread included).
const db = t.database.db as unknown as {
  execute: (q: unknown) => Promise<unknown>;
  dialect: { sqlToQuery: (q: unknown) => { sql: string } };
};
const execute = db.execute.bind(db);
const steps: string[] = [];
db.execute = async (q: unknown) => {
  const text = db.dialect.sqlToQuery(q).sql;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  try {
    return await execute(q);
  } finally {
    const cpu = process.cpuUsage(cpu0);
    if (/^(vacuum|analyze)/.test(text) && text.includes('device_status_periods'))
      steps.push(`${text}: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, ${(performance.now() - wall0).toFixed(0)} ms wall`);
  }
};
await maintainPglite(t.database, limits);
if (process.env.INDEXES) {
  for (const { name } of await periodTables()) await db.execute(sql.raw(`vacuum (index_cleanup on, truncate off) "public"."${name}"`));
}
if (process.env.ANALYZE) {
  for (const { name, mb } of await periodTables()) {
    if (mb * 1024 * 1024 < limits.bigTableBytes) continue;
    await db.execute(sql.raw(`set default_statistics_target = ${limits.bigTableStatisticsTarget}`));
    await db.execute(sql.raw(`analyze "public"."${name}"`));
    await db.execute(sql`reset default_statistics_target`);
  }
}
db.execute = execute;
console.log(steps.join('\n'));
console.log('after:', JSON.stringify(await periodTables()), `(load ${loadavg()[0].toFixed(1)})`);
await t.close();
process.exit(0);

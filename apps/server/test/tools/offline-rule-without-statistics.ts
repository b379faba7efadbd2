/**
 * What one tick of the Device Offline rule (alerts/offline-alert-rule.repository.ts) costs with and
 * without planner statistics, on a database where every offline device is already held by its portal's
 * open alert (a tick with nothing to do, the common case). The real app's database in this process
 * (PGlite in memory, or PostgreSQL with VIGIL_TEST_DB=postgres TEST_DATABASE_URL=..., its own
 * database, dropped at the end), seeded by set-based SQL: DEVICES devices over DEVICES/50 portals, half
 * of them offline, five closed status periods each, five resolved alerts per portal (ten devices each)
 * and one open alert per portal holding its offline devices.
 *
 * First without statistics (PostgreSQL: the tables are created fresh with autovacuum_enabled = false
 * and never analyzed; PGlite: nothing analyzes), then after `analyze`: one tick per rule module and
 * round, rules alternating. RULES names the modules to compare, comma-separated, relative to this file
 * (default: the real one); each must export applyOfflineAlertRules. PostgreSQL ends a statement at the
 * pool's 30 s statement_timeout; PGlite has none, so a tick that never ends there holds the run (run
 * such a rule alone, under `timeout`, with PHASES=none, and name it in SKIP_NONE elsewhere).
 *
 *   npx tsx apps/server/test/tools/offline-rule-without-statistics.ts
 *   UNHELD=1: no open alerts, so each rule's first tick opens them all (run one rule per process).
 *   Env: DEVICES (20000), ROUNDS (3), PHASES (none,analyzed), RULES, SKIP_NONE (rule names not run
 *   without statistics), EXPLAIN=1 (print each plan without statistics)
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryRows } from '../../src/db/client.ts';
import { DEVICE_OFFLINE_ALERT, OFFLINE } from '../../src/db/codes.ts';
import type { AppDeps } from '../../src/deps.ts';
import { usesPostgres, workerDatabaseUrl } from '../database.ts';
import { createTenant } from '../factories.ts';
import { createTestApp } from '../harness.ts';

type Rule = (deps: Pick<AppDeps, 'database' | 'bus'>, now: Date) => Promise<number[]>;

const DEVICES = Number(process.env.DEVICES ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PHASES = (process.env.PHASES ?? 'none,analyzed').split(',');
const RULES = (process.env.RULES ?? '../../src/modules/alerts/offline-alert-rule.repository.ts').split(',');
const UNHELD = Boolean(process.env.UNHELD);
const SKIP_NONE = (process.env.SKIP_NONE ?? '').split(',');
const PORTALS = Math.max(1, Math.round(DEVICES / 50));
const TABLES = ['tenants', 'portals', 'devices', 'device_status_periods', 'alerts', 'alert_devices'];

const rules: { name: string; apply: Rule }[] = [];
for (const path of RULES) {
  const module = (await import(new URL(path, import.meta.url).href)) as { applyOfflineAlertRules: Rule };
  rules.push({ name: path.split('/').pop()!.replace(/\.ts$/, ''), apply: module.applyOfflineAlertRules });
}

const t = await createTestApp();
const db = t.database.db;
if (usesPostgres()) {
  // Fresh, empty tables (the worker database was just created and migrated): never analyzed from here on.
  for (const table of TABLES) await t.database.exec(`alter table ${table} set (autovacuum_enabled = false)`);
}
const now = t.clock.now();
const s0 = performance.now();
const tenant = await createTenant(t);
const tid = tenant.id;
await db.execute(sql`insert into portals (tenant_id, id, name, api_key_enc, webhook_secret_enc)
  select ${tid}, p, 'Portal ' || p, 'x', 'x' from generate_series(1, ${PORTALS}) p`);
// Device i: portal 1 + i % PORTALS, offline in every other round of the portals (half of each portal's devices).
await db.execute(sql`insert into devices (tenant_id, id, portal_id, external_id, name, device_type, status,
    last_report_at, status_since, first_seen_at)
  select ${tid}, i, 1 + i % ${PORTALS}, 'd' || i, 'Device ' || i, 1, case when (i / ${PORTALS}) % 2 = 0 then ${OFFLINE} else 1 end,
    ${now.toISOString()}, ${now.toISOString()}, ${now.toISOString()}
    from generate_series(1, ${DEVICES}) i`);
await db.execute(sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at, ended_at)
  select ${tid}, i, 1 + i % ${PORTALS}, k % 2, ${now.toISOString()}::timestamptz - (k + 1) * interval '1 day',
    ${now.toISOString()}::timestamptz - k * interval '1 day'
    from generate_series(1, ${DEVICES}) i, generate_series(1, 5) k`);
await db.execute(sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
  select ${tid}, i, 1 + i % ${PORTALS}, case when (i / ${PORTALS}) % 2 = 0 then ${OFFLINE} else 1 end, ${now.toISOString()}
    from generate_series(1, ${DEVICES}) i`);
// Alert (p - 1) * 6 + k of portal p: k 1-5 resolved, holding ten of its devices; k 6 open, holding its offline ones.
await db.execute(sql`insert into alerts (tenant_id, id, portal_id, alert_type, offline_count, critical, resolved_at, created_at, updated_at)
  select ${tid}, (p - 1) * 6 + k, p, ${DEVICE_OFFLINE_ALERT}, 10, 0, case when k < 6 then ${now.toISOString()}::timestamptz end,
    ${now.toISOString()}, ${now.toISOString()}
    from generate_series(1, ${PORTALS}) p, generate_series(1, 6) k`);
await db.execute(sql`select setval(pg_get_serial_sequence('alerts', 'id'), ${PORTALS * 6})`);
await db.execute(sql`insert into alert_devices (tenant_id, alert_id, device_id)
  select ${tid}, (p - 1) * 6 + k, d.id from generate_series(1, ${PORTALS}) p, generate_series(1, 5) k
    cross join lateral (select id from devices where tenant_id = ${tid} and portal_id = p order by id limit 10) d`);
if (UNHELD) await db.execute(sql`update alerts set resolved_at = ${now.toISOString()} where resolved_at is null`);
else
  await db.execute(sql`insert into alert_devices (tenant_id, alert_id, device_id)
  select ${tid}, (d.portal_id - 1) * 6 + 6, d.id from devices d where d.tenant_id = ${tid} and d.status = ${OFFLINE}
  on conflict do nothing`);
await db.execute(
  sql`update alerts a set offline_count = (select count(*) from alert_devices ad where ad.tenant_id = a.tenant_id and ad.alert_id = a.id)`,
);
console.log(
  `${t.database.kind}: seeded ${DEVICES} devices (${DEVICES / 2} offline), ${PORTALS} portals, ${PORTALS * 6} alerts in ${((performance.now() - s0) / 1000).toFixed(1)} s`,
);

const analyzed = async () =>
  (
    await queryRows<{ n: number }>(
      db,
      sql`select count(distinct starelid)::int as n from pg_statistic where starelid in (${sql.join(
        TABLES.map((table) => sql`${table}::regclass`),
        sql`, `,
      )})`,
    )
  )[0].n;

async function explain(rule: { name: string; apply: Rule }): Promise<void> {
  // The rule's statement, captured from the prepared runner and explained in its place (rolled back).
  const prepared = t.deps.database.prepared;
  const explained = new Error('explained');
  t.deps.database.prepared = {
    rows: async (tx, query) => {
      const plan = await queryRows<{ 'QUERY PLAN': string }>(tx, sql`explain ${query}`);
      console.log(`plan of ${rule.name} without statistics:\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
      throw explained;
    },
  };
  try {
    await rule.apply(t.deps, now);
  } catch (e) {
    if (e !== explained) throw e;
  } finally {
    t.deps.database.prepared = prepared;
  }
}

const figures = new Map<string, string[]>();
for (const phase of PHASES) {
  if (phase === 'analyzed') await t.database.exec('analyze');
  if (phase === 'none' && (await analyzed()) > 0) throw new Error('the tables have statistics');
  if (phase === 'none' && process.env.EXPLAIN) for (const rule of rules) await explain(rule);
  for (let round = 0; round < ROUNDS; round++) {
    for (const rule of round % 2 === 0 ? rules : [...rules].reverse()) {
      if (phase === 'none' && SKIP_NONE.includes(rule.name)) continue;
      const t0 = performance.now();
      let figure: string;
      try {
        const opened = await rule.apply(t.deps, now);
        if (opened.length && !(UNHELD && round === 0)) throw new Error(`${rule.name} opened alerts in a tick with nothing to do`);
        figure = `${Math.round(performance.now() - t0)} ms${opened.length ? ` (opened ${opened.length})` : ''}`;
      } catch (e) {
        if ((e as { code?: string }).code !== '57014') throw e;
        figure = `cancelled by the statement timeout after ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      }
      console.log(`${phase.padEnd(8)} ${rule.name}: ${figure}`);
      figures.set(`${phase} ${rule.name}`, [...(figures.get(`${phase} ${rule.name}`) ?? []), figure]);
    }
  }
}
const unchanged = await queryRows<{ open: number; held: number }>(
  db,
  sql`select (select count(*)::int from alerts where resolved_at is null) as open, (select count(*)::int from alert_devices) as held`,
);
console.log(`after the ticks: ${unchanged[0].open} open alerts (of ${PORTALS}), ${unchanged[0].held} alert_devices rows`);
for (const [key, list] of figures) console.log(`${key}: ${list.join(', ')}`);
await t.close();
if (usesPostgres()) {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${new URL(workerDatabaseUrl()).pathname.slice(1)}" with (force)`);
  await admin.end();
}

/**
 * Ingestion baselines, straight into the database (no HTTP, no validation, no events): what the
 * webhook route is compared against. Each device event = upsert the device by external id, close
 * its open status period, open a new one — the minimum any ingestion must write.
 * Runs on the `other` tenant so the main tenant's history stays as seeded for the Pulse checks.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../apps/server/src/db/client.ts';
import type { BenchContext } from '../lib/context.ts';
import { seededInventory } from '../lib/webhook.ts';

interface Event {
  portalId: number;
  externalId: string;
  name: string;
  deviceType: number;
  status: number;
  at: string;
}

/** N distinct devices of the tenant, portal-major, so one set-based statement never hits a device twice. */
function events(ctx: BenchContext, count: number, status: number): Event[] {
  const t = ctx.other;
  const n = Math.min(count, t.portals.length * t.devicesPerPortal);
  const at = new Date().toISOString();
  return Array.from({ length: n }, (_, i) => {
    const j = 1 + Math.floor(i / t.portals.length);
    const portalId = t.portals[i % t.portals.length].id;
    const { name, deviceType } = seededInventory(portalId, j);
    return { portalId, externalId: `dev-${j}`, name, deviceType, status, at };
  });
}

async function rowByRow(database: Database, tenantId: number, list: Event[]): Promise<void> {
  const db = database.db;
  for (const e of list) {
    const res = (await db.execute(sql`
      insert into devices (tenant_id, portal_id, external_id, name, device_type, device_model, status,
                           last_report_at, last_online, status_since, first_seen_at)
      values (${tenantId}::int, ${e.portalId}::int, ${e.externalId}, ${e.name}, ${e.deviceType}::int, '', ${e.status}::int,
              ${e.at}::timestamptz, ${e.at}::timestamptz, ${e.at}::timestamptz, ${e.at}::timestamptz)
      on conflict (tenant_id, portal_id, external_id) do update
        set status = excluded.status, last_report_at = excluded.last_report_at, status_since = excluded.status_since,
            name = excluded.name, updated_at = now()
      returning id`)) as { rows: { id: number }[] };
    const id = res.rows[0].id;
    await db.execute(sql`update device_status_periods set ended_at = ${e.at}::timestamptz
                          where tenant_id = ${tenantId}::int and device_id = ${id}::int and ended_at is null`);
    await db.execute(sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
                         values (${tenantId}::int, ${id}::int, ${e.portalId}::int, ${e.status}::int, ${e.at}::timestamptz)`);
  }
}

async function setBased(database: Database, tenantId: number, list: Event[]): Promise<void> {
  await database.db.execute(sql`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(list)}::jsonb)
        as x("portalId" int, "externalId" text, name text, "deviceType" int, status int, at timestamptz)
    ), up as (
      insert into devices (tenant_id, portal_id, external_id, name, device_type, device_model, status,
                           last_report_at, last_online, status_since, first_seen_at)
      select ${tenantId}::int, x."portalId", x."externalId", x.name, x."deviceType", '', x.status, x.at, x.at, x.at, x.at from x
      on conflict (tenant_id, portal_id, external_id) do update
        set status = excluded.status, last_report_at = excluded.last_report_at, status_since = excluded.status_since,
            name = excluded.name, updated_at = now()
      returning id, portal_id, status, status_since
    ), closed as (
      update device_status_periods p set ended_at = up.status_since
        from up where p.tenant_id = ${tenantId}::int and p.device_id = up.id and p.ended_at is null
      returning 1
    )
    insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
    select ${tenantId}::int, id, portal_id, status, status_since from up`);
}

/**
 * Events of the row loop run first, unmeasured: the first few hundred statements after the seed ran
 * at about 60 % of the loop's steady rate (cold caches, trigger functions compiled at first call;
 * 224 vs 290-390 events/s measured), which one pass of 2,000 events counted in full.
 */
const WARM_UP_EVENTS = 200;

/** Wall-clock rate and rate per CPU-second of this process (PGlite runs in it; on PostgreSQL the database's CPU is not counted). */
async function timed(count: number, run: () => Promise<void>): Promise<{ rate: number; perCpuSecond: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { rate: count / seconds, perCpuSecond: count / ((cpu.user + cpu.system) / 1e6) };
}

export async function measureIngestionBaselines(ctx: BenchContext, database: Database): Promise<void> {
  const tenantId = ctx.other.id;
  const warmUp = events(ctx, Math.min(WARM_UP_EVENTS, ctx.size.baselineRows), 1);
  await rowByRow(database, tenantId, warmUp);
  const offline = events(ctx, ctx.size.baselineRows, 0);
  const row = await timed(offline.length, () => rowByRow(database, tenantId, offline));
  const rowRate = row.rate;

  const online = events(ctx, ctx.size.baselineRows, 1);
  const set = await timed(online.length, () => setBased(database, tenantId, online));
  const setRate = set.rate;
  const perCpu = ctx.kind === 'pglite' ? ', PGlite in this process' : ', database not counted';

  ctx.shared.rowLoopEventsPerSec = rowRate;
  ctx.shared.setBasedEventsPerSec = setRate;
  ctx.results.add({
    group: 'Ingestion baseline',
    name: `single-row INSERT loop (${offline.length} events, 3 statements each)`,
    value: rowRate,
    unit: 'events/s',
    detail: `after ${warmUp.length} unmeasured events; ${Math.round(row.perCpuSecond)} events per CPU-second${perCpu}`,
  });
  ctx.results.add({
    group: 'Ingestion baseline',
    name: `one set-based statement (${online.length} events)`,
    value: setRate,
    unit: 'events/s',
    detail: `${Math.round(set.perCpuSecond)} events per CPU-second${perCpu}`,
    baseline: { name: 'row loop', value: rowRate, unit: 'events/s' },
    ratio: setRate / rowRate,
  });
}

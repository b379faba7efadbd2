/**
 * Deterministic benchmark data, inserted set-based (generate_series / jsonb_to_recordset: one
 * statement per table and tenant, never row by row). Ids are explicit so related rows (periods,
 * case devices, alert devices) are computed by formula; sequences are moved past them at the end.
 *
 * Shape per device (id d): first seen at windowStart + (37 d mod 1440) min; then 96 h cycles of
 * online then offline (offline 10 min .. 12 h, by a hash of d and the cycle), two status changes
 * per cycle; the current period is open. 2 % of devices (d mod 50 = 0; size.offlinePercent: d mod 100 below it) are offline now, since a
 * few minutes, so live events have rows. Tenants get a 7-day heartbeat timeout so the offline
 * sweep does not rewrite the data set while it is measured.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../apps/server/src/db/client.ts';
import { createSecretBox } from '../../apps/server/src/security/secret-box.ts';
import type { SizeSpec } from './lib/sizes.ts';

export interface SeededPortal {
  id: number;
  /** whsec_... : what the portal's sender signs with. */
  secret: string;
}

export interface SeededTenant {
  id: number;
  name: string;
  adminUserId: number;
  portals: SeededPortal[];
  devicesPerPortal: number;
  /** Devices have ids firstDeviceId .. firstDeviceId + portals * devicesPerPortal - 1. */
  firstDeviceId: number;
  deviceCount: number;
  caseCount: number;
  alertCount: number;
}

export interface SeededData {
  /** The "now" the history was generated against. */
  now: string;
  windowDays: number;
  tenants: SeededTenant[];
  rowCounts: Record<string, number>;
  seconds: number;
}

/** A deterministic webhook secret per portal (whsec_ + base64 of 32 bytes). */
function portalSecret(tenant: number, index: number): string {
  return `whsec_${createHash('sha256').update(`vigil-bench-${tenant}-${index}`).digest('base64')}`;
}

async function run<T = Record<string, unknown>>(database: Database, statement: SQL): Promise<T[]> {
  return database.db.transaction(async (tx) => {
    // Seeding is platform work: see every tenant even when the role is not a superuser.
    await tx.execute(sql`select set_config('app.all_tenants', 'on', true)`);
    // L inserts millions of rows in one statement: past the pool's 30 s statement timeout.
    await tx.execute(sql`select set_config('statement_timeout', '0', true)`);
    return queryRows<T>(tx, statement);
  });
}

export async function seedDatabase(database: Database, size: SizeSpec, appSecret: string): Promise<SeededData> {
  const started = Date.now();
  const box = createSecretBox(appSecret);
  const now = new Date();
  const nowIso = now.toISOString();
  const windowStart = new Date(now.getTime() - size.days * 86_400_000).toISOString();
  const cycleSec = size.cycleHours * 3600;
  // Offline now: every 50th device (2 %), or with offlinePercent the devices whose id mod 100 is below it.
  const offPercent = size.offlinePercent ?? 0;
  const tenants: SeededTenant[] = [];
  let portalBase = 0;
  let deviceBase = 0;
  let caseBase = 0;
  let alertBase = 0;

  for (const [index, t] of size.tenants.entries()) {
    const name = `Bench Tenant ${index + 1}`;
    const [tenant] = await run<{ id: number }>(
      database,
      sql`
      insert into tenants (name, contact_name, email, subscription_status, heartbeat_timeout, goal_score)
      values (${name}, 'Bench Admin', ${`tenant${index + 1}@bench.vigil.test`}, 'active', 10080, 95)
      returning id`,
    );
    const tenantId = tenant.id;
    const [admin] = await run<{ id: number }>(
      database,
      sql`
      insert into users (tenant_id, email, name, roles, email_verified_at)
      values (${tenantId}, ${`admin${index + 1}@bench.vigil.test`}, 'Bench Admin', '{Admin}'::text[], ${nowIso}::timestamptz)
      returning id`,
    );

    const dpp = Math.floor(t.devices / t.portals);
    const portals: SeededPortal[] = Array.from({ length: t.portals }, (_, i) => ({
      id: portalBase + i + 1,
      secret: portalSecret(index + 1, i + 1),
    }));
    const portalRows = portals.map((p, i) => ({
      id: p.id,
      name: `Customer ${index + 1}-${String(i + 1).padStart(4, '0')}`,
      api: box.seal(`bench-api-key-${p.id}`),
      secret: box.seal(p.secret),
    }));
    await run(
      database,
      sql`
      insert into portals (tenant_id, id, name, api_key_enc, webhook_secret_enc)
      select ${tenantId}::int, x.id, x.name, x.api, x.secret
        from jsonb_to_recordset(${JSON.stringify(portalRows)}::jsonb) as x(id int, name text, api text, secret text)`,
    );

    const P = t.portals;
    await run(
      database,
      sql`
      with g as (
        select ${deviceBase}::int + pi * ${dpp}::int + j as id, ${portalBase}::int + pi + 1 as portal_id, j
          from generate_series(0, ${P - 1}::int) pi, generate_series(1, ${dpp}::int) j
      ), v as (
        select g.*, ${windowStart}::timestamptz + ((g.id * 37) % 1440) * interval '1 minute' as fs,
               case when (${offPercent}::int = 0 and g.id % 50 = 0) or g.id % 100 < ${offPercent}::int then 0 else 1 end as st
          from g
      ), w as (
        select v.*,
               v.fs + floor(extract(epoch from (${nowIso}::timestamptz - interval '1 hour' - v.fs)) / ${cycleSec}::int)
                      * ${cycleSec}::int * interval '1 second' as sc,
               ${nowIso}::timestamptz - (((v.id / 50) % 50) + 5) * interval '1 minute' as off_since
          from v
      )
      -- Name, type and model as the bench's reports carry them (lib/webhook.ts seededInventory).
      insert into devices (tenant_id, id, portal_id, external_id, name, device_type, device_model, status,
                           last_report_at, last_online, status_since, first_seen_at)
      select ${tenantId}::int, w.id, w.portal_id, 'dev-' || w.j, 'Device ' || w.portal_id || '-' || w.j,
             w.j % 5, 'Model ' || (w.j % 7), w.st,
             case w.st when 1 then ${nowIso}::timestamptz - (w.id % 5) * interval '1 minute' else w.off_since end,
             case w.st when 1 then ${nowIso}::timestamptz - (w.id % 5) * interval '1 minute' else w.off_since end,
             case w.st when 1 then w.sc else w.off_since end,
             w.fs
        from w`,
    );

    await run(
      database,
      sql`
      with d as (
        select id, portal_id, status, first_seen_at as fs, status_since,
               floor(extract(epoch from (${nowIso}::timestamptz - interval '1 hour' - first_seen_at)) / ${cycleSec}::int)::int as c
          from devices where tenant_id = ${tenantId}::int
      ), cycles as (
        select d.id, d.portal_id, k,
               d.fs + k * ${cycleSec}::int * interval '1 second' as s,
               ((d.id * 7919 + k * 104729) % 720 + 10) * 60 as off_secs
          from d, generate_series(0, d.c - 1) k
      )
      insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at, ended_at)
      select ${tenantId}::int, id, portal_id, x.status, x.s, x.e
        from cycles,
             lateral (values (1::smallint, cycles.s, cycles.s + (${cycleSec}::int - off_secs) * interval '1 second'),
                             (0::smallint, cycles.s + (${cycleSec}::int - off_secs) * interval '1 second',
                              cycles.s + ${cycleSec}::int * interval '1 second')) as x(status, s, e)
      union all
      select ${tenantId}::int, id, portal_id, 1::smallint, fs + c * ${cycleSec}::int * interval '1 second',
             case when status = 1 then null else status_since end
        from d
      union all
      select ${tenantId}::int, id, portal_id, 0::smallint, status_since, null from d where status = 0`,
    );

    const hours = size.days * 24;
    await run(
      database,
      sql`
      insert into cases (tenant_id, id, portal_id, case_type, offline_count, created_by, completed_at, created_at, updated_at)
      select ${tenantId}::int, ${caseBase}::int + i, ${portalBase}::int + 1 + (i % ${P}::int), i % 5, i % 7, ${admin.id}::int,
             case when i % 5 = 4 then least(created + interval '1 day', ${nowIso}::timestamptz) end, created, created
        from (select i, ${nowIso}::timestamptz - ((i * 13) % ${hours}::int) * interval '1 hour' as created
                from generate_series(1, ${t.cases}::int) i) s`,
    );
    await run(
      database,
      sql`
      insert into case_devices (tenant_id, case_id, device_id, released_at)
      select ${tenantId}::int, ${caseBase}::int + i, ${deviceBase}::int + (i % ${P}::int) * ${dpp}::int + 1 + (i % ${dpp}::int),
             case when i % 5 = 4 then ${nowIso}::timestamptz end
        from generate_series(1, ${t.cases}::int) i`,
    );

    const minutes = size.days * 24 * 60;
    await run(
      database,
      sql`
      insert into alerts (tenant_id, id, portal_id, alert_type, offline_count, critical, resolved_at, created_at, updated_at)
      select ${tenantId}::int, ${alertBase}::int + i, ${portalBase}::int + 1 + (i % ${P}::int),
             case when i % 10 = 0 then 1 else 0 end, 1 + i % 3, case when i % 17 = 0 then 1 else 0 end,
             case when i % 5 = 0 then null else created + interval '2 hours' end, created, created
        from (select i, ${nowIso}::timestamptz - ((i * 7) % ${minutes}::int) * interval '1 minute' as created
                from generate_series(1, ${t.alerts}::int) i) s`,
    );
    await run(
      database,
      sql`
      insert into alert_devices (tenant_id, alert_id, device_id)
      select ${tenantId}::int, ${alertBase}::int + i, ${deviceBase}::int + (i % ${P}::int) * ${dpp}::int + 1 + (i % ${dpp}::int)
        from generate_series(1, ${t.alerts}::int) i where i % 10 <> 0`,
    );

    tenants.push({
      id: tenantId,
      name,
      adminUserId: admin.id,
      portals,
      devicesPerPortal: dpp,
      firstDeviceId: deviceBase + 1,
      deviceCount: P * dpp,
      caseCount: t.cases,
      alertCount: t.alerts,
    });
    portalBase += P;
    deviceBase += P * dpp;
    caseBase += t.cases;
    alertBase += t.alerts;
  }

  // Explicit ids were used: move each sequence past them so the server's inserts do not collide.
  for (const table of ['portals', 'devices', 'cases', 'alerts']) {
    await run(database, sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`));
  }
  await database.exec('analyze');
  const rowCounts: Record<string, number> = {};
  for (const table of ['tenants', 'portals', 'devices', 'device_status_periods', 'cases', 'case_devices', 'alerts', 'alert_devices']) {
    const [row] = await run<{ n: number | string }>(database, sql.raw(`select count(*)::int as n from ${table}`));
    rowCounts[table] = Number(row.n);
  }
  return { now: nowIso, windowDays: size.days, tenants, rowCounts, seconds: (Date.now() - started) / 1000 };
}

/** PostgreSQL only: empties the bench database (BENCH_DATABASE_URL must be a throwaway database). */
export async function resetPostgres(database: Database): Promise<void> {
  await database.exec('drop schema if exists drizzle cascade; drop schema public cascade; create schema public;');
}

import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';

/**
 * Set-based demo devices and 30 days of status history for one tenant (one statement each).
 *
 * Each device gets a class by chance: 89% good (0-3 outages of 5-90 min in its history),
 * 8% flaky (8-19 outages of 20-180 min), 3% bad (20-39 outages of 1-8 h). History is cut into
 * as many equal slots as outages, one outage at a random place in each slot, so periods never
 * overlap. About 4% of devices (40% of bad ones, and one in each of the first eight portals)
 * are offline now: their last outage is still open.
 */
export async function insertDemoDevices(
  tx: Tx,
  tenantId: number,
  now: Date,
  portals: { id: number; devices: number }[],
  names: { places: readonly string[]; kinds: readonly string[]; models: readonly (readonly string[])[]; typeMix: readonly number[] },
): Promise<void> {
  const nowIso = now.toISOString();
  const ids = `{${portals.map((p) => p.id).join(',')}}`;
  const counts = `{${portals.map((p) => p.devices).join(',')}}`;
  await tx.execute(sql`
    insert into devices (tenant_id, portal_id, external_id, name, device_type, device_model, status, last_report_at, last_online, status_since, first_seen_at)
    select ${tenantId}::int, p.id, 'NW-' || p.id || '-' || lpad(g.i::text, 3, '0'),
           (${JSON.stringify(names.places)}::jsonb ->> ((g.i - 1) % ${names.places.length})) || ' '
             || (${JSON.stringify(names.kinds)}::jsonb ->> t.type) || ' ' || ((g.i - 1) / ${names.places.length} + 1),
           t.type,
           ${JSON.stringify(names.models)}::jsonb -> t.type ->> (g.i % jsonb_array_length(${JSON.stringify(names.models)}::jsonb -> t.type)),
           1, ${nowIso}::timestamptz, ${nowIso}::timestamptz, ${nowIso}::timestamptz,
           case when random() < 0.1 then ${nowIso}::timestamptz - (3 + random() * 17) * interval '1 day'
                else ${nowIso}::timestamptz - interval '30 days' - random() * interval '60 days' end
      from unnest(${ids}::int[], ${counts}::int[]) as p(id, n)
      cross join lateral generate_series(1, p.n) as g(i)
      cross join lateral (select (${JSON.stringify(names.typeMix)}::jsonb ->> ((g.i * 7 + p.id) % ${names.typeMix.length}))::int as type) t`);

  await tx.execute(sql`
    with dev0 as materialized (
      select id, portal_id, greatest(first_seen_at, ${nowIso}::timestamptz - interval '30 days') as fs,
             random() as q, random() as o, random() as r,
             row_number() over (partition by portal_id order by id) as pos,
             dense_rank() over (order by portal_id) as prank
        from devices where tenant_id = ${tenantId}
    ), dev as (
      select id, portal_id, fs,
             case when q < 0.03 then 2 when q < 0.11 then 1 else 0 end as cls,
             -- a third device of the first eight portals is down too, so outages show on most portals
             (o < 0.04 or (q < 0.03 and o < 0.4) or (pos = 3 and prank <= 8)) as cur_off, r
        from dev0
    ), params as (
      select id, portal_id, fs, cur_off,
             greatest(case cls when 2 then 20 + floor(r * 20) when 1 then 8 + floor(r * 12) else floor(r * 4) end, cur_off::int)::int as k,
             case cls when 2 then 60 when 1 then 20 else 5 end as mn,
             case cls when 2 then 480 when 1 then 180 else 90 end as mx
        from dev
    ), slots as materialized (
      select id, portal_id, fs, cur_off, k, j,
             fs + (${nowIso}::timestamptz - fs) * j / k as slot_start,
             (${nowIso}::timestamptz - fs) / k as slot_len,
             least((mn + random() * (mx - mn)) * interval '1 minute', (${nowIso}::timestamptz - fs) / k / 2) as dur,
             random() as u, random() as w
        from params cross join lateral generate_series(0, k - 1) as j
    ), outages as (
      select id, portal_id, fs, j, k,
             case when cur_off and j = k - 1 then greatest(slot_start, ${nowIso}::timestamptz - (5 + w * 355) * interval '1 minute')
                  else slot_start + u * (slot_len - dur) end as os,
             case when cur_off and j = k - 1 then null else slot_start + u * (slot_len - dur) + dur end as oe
        from slots
    ), online_before as (
      select id, portal_id, coalesce(lag(oe) over (partition by id order by j), fs) as s, os as e from outages
    ), online_after as (
      select p.id, p.portal_id, coalesce((select max(oe) from outages o where o.id = p.id), p.fs) as s, null::timestamptz as e
        from params p where not p.cur_off
    )
    insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at, ended_at)
    select ${tenantId}::int, id, portal_id, 0, os, oe from outages
    union all select ${tenantId}::int, id, portal_id, 1, s, e from online_before where s < e
    union all select ${tenantId}::int, id, portal_id, 1, s, e from online_after`);

  // Current state = the newest period; online devices reported within the last 4 minutes.
  await tx.execute(sql`
    update devices d
       set status = lp.status,
           status_since = lp.started_at,
           last_report_at = case when lp.status = 1 then greatest(lp.started_at, ${nowIso}::timestamptz - random() * interval '4 minutes') else lp.started_at end,
           last_online = case when lp.status = 1 then greatest(lp.started_at, ${nowIso}::timestamptz - random() * interval '4 minutes') else lp.started_at end,
           first_seen_at = least(d.first_seen_at, lp.first_start)
      from (select distinct on (device_id) device_id, status, started_at,
                   min(started_at) over (partition by device_id) as first_start
              from device_status_periods where tenant_id = ${tenantId}
             order by device_id, started_at desc) lp
     where d.tenant_id = ${tenantId} and d.id = lp.device_id`);
}

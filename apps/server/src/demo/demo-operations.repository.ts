import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { OFFLINE, ONLINE } from '../db/codes.ts';

/**
 * Set-based demo cases, comments, alerts, licenses and reports for one tenant, consistent
 * with the devices' current state (inserted by demo-history.repository.ts before this runs).
 */
export async function insertDemoOperations(
  tx: Tx,
  tenantId: number,
  now: Date,
  users: { adminId: number; pmId: number },
  comments: readonly string[],
): Promise<void> {
  const nowIso = now.toISOString();
  const T = tenantId;

  // Open cases: two of every three portals with offline devices (status New, In Progress, Awaiting
  // Delivery in turn) holding those devices; the third portal's outage is left to its alert.
  await tx.execute(sql`
    with offline as (
      select portal_id, count(*) as n, min(status_since) as since,
             row_number() over (order by portal_id) as rn
        from devices where tenant_id = ${T} and status = ${OFFLINE} and removed_at is null group by portal_id
    ), made as (
      insert into cases (tenant_id, portal_id, case_type, offline_count, created_by, created_at, updated_at)
      select ${T}::int, portal_id, ((rn - rn / 3 - 1) % 3)::smallint, n, ${users.pmId}::int, least(since + interval '20 minutes', ${nowIso}::timestamptz), ${nowIso}::timestamptz
        from offline where rn % 3 <> 0
      returning id, portal_id
    ), held as (
      insert into case_devices (tenant_id, case_id, device_id)
      select ${T}::int, m.id, d.id from made m join devices d on d.tenant_id = ${T} and d.portal_id = m.portal_id and d.status = ${OFFLINE}
      returning case_id, device_id
    )
    update devices d set open_case_id = h.case_id from held h where d.tenant_id = ${T} and d.id = h.device_id`);

  // Requires Testing: the flakiest online device of two portals without an open case.
  await tx.execute(sql`
    with flaky as (
      select distinct on (d.portal_id) d.portal_id, d.id, count(*) as outages
        from devices d join device_status_periods p on p.tenant_id = d.tenant_id and p.device_id = d.id and p.status = ${OFFLINE}
       where d.tenant_id = ${T} and d.status = ${ONLINE}
         and not exists (select 1 from cases c where c.tenant_id = ${T} and c.portal_id = d.portal_id)
       group by d.portal_id, d.id order by d.portal_id, count(*) desc, d.id
    ), chosen as (select * from flaky order by outages desc, portal_id limit 2),
    made as (
      insert into cases (tenant_id, portal_id, case_type, offline_count, created_by, created_at, updated_at)
      select ${T}::int, portal_id, 3, 1, ${users.adminId}::int, ${nowIso}::timestamptz - interval '2 days', ${nowIso}::timestamptz from chosen
      returning id, portal_id
    ), held as (
      insert into case_devices (tenant_id, case_id, device_id)
      select ${T}::int, m.id, c.id from made m join chosen c on c.portal_id = m.portal_id returning case_id, device_id
    )
    update devices d set open_case_id = h.case_id from held h where d.tenant_id = ${T} and d.id = h.device_id`);

  // Completed cases over the last months, each with one released device.
  await tx.execute(sql`
    with picks as (
      select p.id as portal_id, g.i,
             ${nowIso}::timestamptz - (g.i * 9 + 3) * interval '1 day' as created
        from generate_series(1, 8) as g(i)
        join lateral (select id from portals where tenant_id = ${T} order by id offset (g.i * 5) % 12 limit 1) p on true
    ), made as (
      insert into cases (tenant_id, portal_id, case_type, offline_count, created_by, completed_at, created_at, updated_at)
      select ${T}::int, portal_id, 4, 1, ${users.pmId}::int, created + interval '2 days', created, created + interval '2 days' from picks
      returning id, portal_id, completed_at
    )
    insert into case_devices (tenant_id, case_id, device_id, released_at)
    select ${T}::int, m.id, (select d.id from devices d where d.tenant_id = ${T} and d.portal_id = m.portal_id order by d.id limit 1), m.completed_at
      from made m`);

  // One to three comments per case, by the Admin and the PM in turn.
  await tx.execute(sql`
    insert into comments (tenant_id, case_id, user_id, content, created_at, updated_at)
    select ${T}::int, c.id, case when g.j % 2 = 0 then ${users.pmId}::int else ${users.adminId}::int end,
           ${JSON.stringify(comments)}::jsonb ->> ((c.id + g.j) % ${comments.length}),
           least(c.created_at + g.j * interval '3 hours', ${nowIso}::timestamptz),
           least(c.created_at + g.j * interval '3 hours', ${nowIso}::timestamptz)
      from cases c cross join lateral generate_series(0, c.id % 3) as g(j)
     where c.tenant_id = ${T}`);

  // Licenses: two per portal; a quarter end within 90 days, a quarter expired, the rest far off.
  await tx.execute(sql`
    with ranked as (select id, row_number() over (order by id) as rn from portals where tenant_id = ${T}),
    lic as (
      select r.id as portal_id, r.rn, l.k, (array[0, 2])[l.k] as device_type, (array[1, 3, 5, 10])[((r.rn + l.k) % 4) + 1] as terms,
             case (r.rn + l.k) % 4
               when 0 then ${nowIso}::date + (15 + (r.rn * 7) % 70)::int
               when 1 then ${nowIso}::date - (10 + (r.rn * 11) % 60)::int
               else ${nowIso}::date + (200 + (r.rn * 37) % 700)::int end as end_date
        from ranked r cross join generate_series(1, 2) as l(k)
    )
    insert into licenses (tenant_id, portal_id, device_type, device_count, terms, start_date, end_date, created_at)
    select ${T}::int, portal_id, device_type,
           greatest(1, (select count(*) from devices d where d.tenant_id = ${T} and d.portal_id = lic.portal_id and d.device_type = lic.device_type)),
           terms, (end_date - make_interval(years => terms))::date, end_date, ${nowIso}::timestamptz - interval '30 days'
      from lic`);

  // Alerts: open Device Offline per portal with offline devices, resolved ones from the past,
  // and License Renewal Pending for every license ending within 90 days.
  await tx.execute(sql`
    with made as (
      insert into alerts (tenant_id, portal_id, alert_type, offline_count, critical, created_at, updated_at)
      select ${T}::int, portal_id, 0, count(*), (count(*) >= 3)::int, min(status_since), ${nowIso}::timestamptz
        from devices where tenant_id = ${T} and status = ${OFFLINE} and removed_at is null group by portal_id
      returning id, portal_id
    )
    insert into alert_devices (tenant_id, alert_id, device_id)
    select ${T}::int, m.id, d.id from made m join devices d on d.tenant_id = ${T} and d.portal_id = m.portal_id and d.status = ${OFFLINE}`);
  await tx.execute(sql`
    with past as (
      select distinct on (p.portal_id, date_trunc('day', p.started_at)) p.portal_id, p.device_id, p.started_at, p.ended_at
        from device_status_periods p
       where p.tenant_id = ${T} and p.status = ${OFFLINE} and p.ended_at is not null and p.ended_at - p.started_at > interval '2 hours'
       order by p.portal_id, date_trunc('day', p.started_at), p.device_id
       limit 6
    ), made as (
      insert into alerts (tenant_id, portal_id, alert_type, offline_count, resolved_at, created_at, updated_at)
      select ${T}::int, portal_id, 0, 1, ended_at, started_at, ended_at from past
      returning id, portal_id, created_at
    )
    insert into alert_devices (tenant_id, alert_id, device_id)
    select ${T}::int, m.id, p.device_id from made m join past p on p.portal_id = m.portal_id and p.started_at = m.created_at`);
  await tx.execute(sql`
    insert into alerts (tenant_id, portal_id, alert_type, license_id, created_at, updated_at)
    select ${T}::int, portal_id, 1, id, ${nowIso}::timestamptz - interval '1 day', ${nowIso}::timestamptz
      from licenses where tenant_id = ${T} and end_date >= ${nowIso}::date and end_date <= ${nowIso}::date + 90`);

  // A few saved reports (every period, all three report types).
  await tx.execute(sql`
    insert into reports (tenant_id, portal_id, period, config, created_by, created_at, updated_at)
    select ${T}::int, p.id, (p.rn - 1)::smallint, '{0,1,2}'::smallint[], ${users.adminId}::int,
           ${nowIso}::timestamptz - p.rn * interval '4 days', ${nowIso}::timestamptz - p.rn * interval '4 days'
      from (select id, row_number() over (order by id) as rn from portals where tenant_id = ${T} order by id limit 4) p`);
}

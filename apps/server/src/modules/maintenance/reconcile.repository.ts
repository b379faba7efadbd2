import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { at } from '../../db/sql-list.ts';
import { exactInstant, tenantCondition } from '../../db/sql-fragments.ts';
import { allTenants, tenantScope } from '../../db/scope.ts';

/**
 * The devices' maintenance transitions (docs/maintenance.md): maintenance is materialised into status
 * history. A device covered at `now` by an occurrence of a window enters at E = greatest(occurrence start,
 * status_since): its open period closes at E, a status-2 period opens at E, maintenance_since = E. A
 * device in maintenance that no window covers any more leaves at X: the status-2 period closes at X, a
 * period of its reported status opens at X, status_since = X, maintenance_since = null. Both are rule (a)
 * of docs/uptime-rollup.md ("The rule for rewritten history"): close the open period at an instant, open
 * the next one there. Set-based across the tenants in scope.
 */

/** Maintenance's period status (packages/contracts PERIOD_STATUS.maintenance), a literal as in db/codes.ts. */
const MAINTENANCE = sql.raw('2');

export interface Transition {
  tenant_id: number;
  id: number;
  portal_id: number;
  status: number;
  /** The instants below are PostgreSQL's text, exact to the microsecond (db/sql-fragments.ts exactInstant). */
  status_since: string;
  maintenance_since: string | null;
  /** Entering: the earliest start of the occurrences covering the device now; null: leaving. */
  occ_start: string | null;
}

/**
 * The devices to move, locked (a statement of its own, as the offline sweep: the next statement's
 * snapshot sees any period committed meanwhile). SKIP LOCKED: a device a webhook is updating now is
 * looked at again next tick (5 s). Entering: covered now by an occurrence of a window of a live portal
 * (no device_ids: every current device of the portal; else the listed ones still there) and not in
 * maintenance. Leaving: in maintenance (devices_maintenance_idx) and covered by none.
 */
export function lockTransitions(tx: Executor, opts: { tenantId?: number; now: Date }): Promise<Transition[]> {
  const now = at(opts.now);
  const scope = opts.tenantId === undefined ? allTenants : tenantScope(opts.tenantId);
  return queryRows<Transition>(
    tx,
    sql`with w as (
          select mw.tenant_id, mw.portal_id, mw.device_ids, o.occ_start
            from maintenance_windows mw
            join tenants t on t.id = mw.tenant_id and t.deleted_at is null
            join portals p on p.tenant_id = mw.tenant_id and p.id = mw.portal_id and p.deleted_at is null
           cross join lateral maintenance_occurrence(mw.starts_at, mw.ends_at, mw.recurrence, t.timezone, ${now}) o
           where ${tenantCondition(scope, sql`mw.tenant_id`)} and mw.starts_at <= ${now} and o.occ_end > ${now}
        ), covered as (
          select tenant_id, portal_id, device_id, min(occ_start) as occ_start from (
            select w.tenant_id, w.portal_id, d.id as device_id, w.occ_start
              from w join devices d on d.tenant_id = w.tenant_id and d.portal_id = w.portal_id
             where cardinality(w.device_ids) = 0 and d.removed_at is null
            union all
            select w.tenant_id, w.portal_id, u.device_id, w.occ_start
              from w cross join unnest(w.device_ids) as u(device_id)
          ) c
          group by tenant_id, portal_id, device_id
        )
        select d.tenant_id, d.id, d.portal_id, d.status, ${exactInstant(sql`d.status_since`)} as status_since,
               ${exactInstant(sql`d.maintenance_since`)} as maintenance_since, ${exactInstant(sql`c.occ_start`)} as occ_start
          from devices d
          left join covered c on c.tenant_id = d.tenant_id and c.device_id = d.id and c.portal_id = d.portal_id
         where (d.tenant_id, d.id) in (select tenant_id, device_id from covered
                                       union all
                                       select m.tenant_id, m.id from devices m
                                        where m.maintenance_since is not null and ${tenantCondition(scope, sql`m.tenant_id`)})
           and d.removed_at is null
           and (c.device_id is null) = (d.maintenance_since is not null)
         order by d.tenant_id, d.id
           for update of d skip locked`,
  );
}

export interface Applied {
  tenant_id: number;
  portal_id: number;
  id: number;
  status: number;
  at: Date | string;
  leaving: boolean;
}

/**
 * Applies the locked transitions. A leaving device leaves at the latest end, at or before now and not
 * before it entered, of an occurrence of a window that still lists or covers it and that was not edited
 * after that end (an edit applies from now); else now (its window was deleted or edited away). The open
 * period is found through periods_device_idx: it started at maintenance_since in maintenance, at
 * status_since outside, and `least` of the two is a lower bound either way (a report during maintenance
 * may have moved status_since before maintenance_since).
 */
export async function applyTransitions(tx: Executor, rows: Transition[], now: Date): Promise<Applied[]> {
  const nowSql = at(now);
  return queryRows<Applied>(
    tx,
    sql`with s as (
          select *, occ_start is null as leaving
            from unnest(${sql.param(rows.map((r) => r.tenant_id))}::int[], ${sql.param(rows.map((r) => r.id))}::int[],
                        ${sql.param(rows.map((r) => r.portal_id))}::int[], ${sql.param(rows.map((r) => r.status))}::smallint[],
                        ${sql.param(rows.map((r) => r.status_since))}::timestamptz[],
                        ${sql.param(rows.map((r) => r.maintenance_since))}::timestamptz[],
                        ${sql.param(rows.map((r) => r.occ_start))}::timestamptz[])
                 as s(tenant_id, id, portal_id, status, status_since, maintenance_since, occ_start)
        ), ended as (
          select s.tenant_id, s.id, max(o.occ_end) as occ_end
            from s
            join maintenance_windows mw on mw.tenant_id = s.tenant_id and mw.portal_id = s.portal_id
                 and (cardinality(mw.device_ids) = 0 or s.id = any(mw.device_ids))
            join tenants t on t.id = mw.tenant_id
           cross join lateral maintenance_occurrence(mw.starts_at, mw.ends_at, mw.recurrence, t.timezone, ${nowSql}) o
           where s.leaving and o.occ_end <= ${nowSql} and o.occ_end >= s.maintenance_since and o.occ_end >= mw.updated_at
           group by s.tenant_id, s.id
        ), m as (
          select s.*, case when s.leaving then greatest(coalesce(e.occ_end, ${nowSql}), s.maintenance_since)
                           else greatest(s.occ_start, s.status_since) end as at
            from s left join ended e on e.tenant_id = s.tenant_id and e.id = s.id
        ), closed as (
          update device_status_periods p set ended_at = m.at
            from m
           where p.tenant_id = m.tenant_id and p.device_id = m.id
             and p.started_at >= least(m.status_since, coalesce(m.maintenance_since, m.status_since))
             and p.ended_at is null -- through periods_device_idx, as in webhooks/ingest.repository.ts
        ), opened as (
          insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
          select tenant_id, id, portal_id, case when leaving then status else ${MAINTENANCE} end, at from m
        )
        update devices d
           set maintenance_since = case when m.leaving then null else m.at end,
               status_since = case when m.leaving then m.at else d.status_since end,
               updated_at = ${nowSql}
          from m
         where d.tenant_id = m.tenant_id and d.id = m.id
        returning d.tenant_id, d.portal_id, d.id, d.status, m.at, m.leaving`,
  );
}

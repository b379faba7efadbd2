import { sql, type SQL } from 'drizzle-orm';
import { ONLINE } from '../../db/codes.ts';
import { MAINTENANCE, observed } from './observed.repository.ts';
import { us } from './rollup-query.repository.ts';

/**
 * Whether a mark still stands (docs/uptime-rollup.md "Marks of the current hour"): a mark holds sums of
 * a tenant's periods from a base instant up to its instant P, read in one snapshot. The app closes a
 * period only together with opening the device's next one at the same instant (reports, the offline
 * sweep, maintenance), or by a removal. So what is dated up to P has changed since exactly in the
 * periods written since (an id above the highest the mark saw) that start at or before P, with the
 * periods they closed, or in the tenant's removals in (base, P]. Where each of those periods starts
 * after the base, what they change in the sums is read from them alone (markPatch): the offline sweep
 * dates a device's offline period at its heartbeat's timeout, a minute or more before it runs, and
 * would otherwise spoil every mark of the tenant at each tick that finds one.
 *
 * Exact only where every id committed before a statement is visible to it and every later one is
 * higher: on PGlite, whose one session runs statements one at a time, not on PostgreSQL (a transaction
 * in flight may commit a lower id later). The app keeps marks on PGlite only.
 */
export interface MarkCheck {
  /** The base instant (ms). */
  base: number;
  /** The instant P (ms). */
  at: number;
  /** The tenant's highest period id when the mark was read. */
  lastId: string;
  /** The tenant's removals in (base, P] when the mark was read: count, sum of ids, sum of instants. */
  removals: string;
  /** How many periods the statement that read it walked (read-marks.ts keeps none where there are few). */
  walked: number;
  /**
   * The end (ms) of the read that walked from the base, whose sums this mark carries on (each mark is
   * read from the one before): set by read-marks.ts, which reads from the base again once it is old.
   */
  root: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** SQL text: the tenant's removals in (base, at] (count, sum of ids, sum of instants), through devices_removed_idx. */
export function removalsIn(tenantId: number, base: number, at: number): SQL {
  return sql`(select count(*) || ':' || coalesce(sum(d.id), 0) || ':' || coalesce(sum(extract(epoch from d.removed_at) * 1000000), 0)
                from devices d
               where d.tenant_id = ${tenantId} and d.removed_at > ${iso(base)}::timestamptz and d.removed_at <= ${iso(at)}::timestamptz)`;
}

/** SQL text: the tenant's highest period id now. */
export function lastPeriodId(tenantId: number): SQL {
  return sql`(select coalesce(max(p.id), 0)::text from device_status_periods p where p.tenant_id = ${tenantId})`;
}

/**
 * The CTE `ms` that a statement reading from `mark` defines before markStands and markPatch use it:
 * the tenant's periods written since the mark that start at or before its instant P (one scan of the
 * ids above the mark's, which both read), each with the status of the period it closed when the mark
 * saw that one in progress (the device's previous period, ended at its start, with an id the mark saw).
 */
export function markSinceCte(tenantId: number, mark: MarkCheck): SQL {
  return sql`ms as materialized (
      select n.portal_id, n.status, n.started_at, n.ended_at, o.status as closed_status
        from device_status_periods n
        left join lateral (select o.id, o.status from device_status_periods o
                            where o.tenant_id = n.tenant_id and o.device_id = n.device_id and o.ended_at = n.started_at
                              and o.started_at <= n.started_at and o.id < n.id
                            order by o.started_at desc, o.id desc limit 1) o on o.id <= ${mark.lastId}::bigint
       where n.tenant_id = ${tenantId} and n.id > ${mark.lastId}::bigint and n.started_at <= ${iso(mark.at)}::timestamptz)`;
}

/**
 * SQL boolean: whether `mark` still stands, with markPatch's rows added to its sums: no period written
 * since it starts at or before its base (CTE `ms`, markSinceCte), and its removals are the same.
 */
export function markStands(tenantId: number, mark: MarkCheck): SQL {
  return sql`(not exists (select 1 from ms where ms.started_at <= ${iso(mark.base)}::timestamptz)
              and ${removalsIn(tenantId, mark.base, mark.at)} = ${mark.removals})`;
}

/**
 * Rows (portal_id, on_us, obs_us, on_n, obs_n) to add to a mark's sums PP(base, P) and Δn(base, P)
 * (rollup-query.repository.ts edgeAndChange over (base, P]) for the periods written since it that start
 * at or before P (CTE `ms`, markSinceCte), when it stands (markStands: each of them starts after the
 * base). Such a period adds what the walk would have added for it, if it begins before P; the period
 * it closed (the device's previous one, ended at its start c, which the mark saw in progress) ran to P
 * in the mark's sums and stops at c: minus (P - c) and minus one in progress, whether it began before
 * the base or after. A closed period that was itself written since the mark is in the first part with its end.
 */
export function markPatch(mark: MarkCheck): SQL {
  const P = sql`${iso(mark.at)}::timestamptz`;
  const begunBefore = sql`n.started_at < ${P} and ${observed('n')}`;
  const nSpan = us(sql`least(coalesce(n.ended_at, 'infinity'::timestamptz), ${P}) - n.started_at`);
  const nRuns = sql`(n.ended_at is null or n.ended_at > ${P})`;
  const oSpan = us(sql`${P} - n.started_at`);
  const closedObserved = sql`n.closed_status <> ${MAINTENANCE}`;
  return sql`
    select n.portal_id,
           case when ${begunBefore} and n.status = ${ONLINE} then ${nSpan} else 0 end
             - case when n.closed_status = ${ONLINE} then ${oSpan} else 0 end as on_us,
           case when ${begunBefore} then ${nSpan} else 0 end - case when ${closedObserved} then ${oSpan} else 0 end as obs_us,
           case when ${begunBefore} and n.status = ${ONLINE} and ${nRuns} then 1 else 0 end
             - case when n.closed_status = ${ONLINE} then 1 else 0 end as on_n,
           case when ${begunBefore} and ${nRuns} then 1 else 0 end - case when ${closedObserved} then 1 else 0 end as obs_n
      from ms n`;
}

import { sql, type SQL } from 'drizzle-orm';

/**
 * Whether a mark still stands (docs/uptime-rollup.md "Marks of the current hour"): a mark holds sums of
 * a tenant's periods from a base instant up to its instant P, read in one snapshot. The app closes a
 * period only together with opening the device's next one at the same instant (reports, the offline
 * sweep, maintenance), or by a removal; so what is dated up to P has changed since exactly when a
 * period written since (an id above the highest the mark saw) starts at or before P, or the tenant's
 * removals in (base, P] differ.
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

/** SQL boolean: whether `mark` still stands. */
export function markStands(tenantId: number, mark: MarkCheck): SQL {
  return sql`(not exists (select 1 from device_status_periods p
                           where p.tenant_id = ${tenantId} and p.id > ${mark.lastId}::bigint and p.started_at <= ${iso(mark.at)}::timestamptz)
              and ${removalsIn(tenantId, mark.base, mark.at)} = ${mark.removals})`;
}

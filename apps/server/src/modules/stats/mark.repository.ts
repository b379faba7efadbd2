import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { ONLINE } from '../../db/codes.ts';
import { MAINTENANCE, observed } from './observed.repository.ts';
import { us } from './rollup-query.repository.ts';

/**
 * Whether a mark still stands (docs/uptime-rollup.md "Marks of the current hour"): a mark holds sums of
 * a tenant's periods from a base instant up to its instant P, read in one snapshot. The app closes a
 * period only together with opening the device's next one at the same instant (reports, the offline
 * sweep, maintenance), or by a removal. So what is dated up to P has changed since exactly in the
 * periods written since (those its snapshot did not see) that start at or before P, with the periods
 * they closed, or in the tenant's removals in (base, P]. Where each of those periods starts after the
 * base, what they change in the sums is read from them alone (markPatch): the offline sweep dates a
 * device's offline period at its heartbeat's timeout, a minute or more before it runs, and would
 * otherwise spoil every mark of the tenant at each tick that finds one.
 *
 * The periods written since are found through an id bound, `fromId`: every period the mark's snapshot
 * did not see has a higher id, and among those above it, the snapshot (`snap`) tells by the period's
 * writing transaction (`written_xid`) which it saw. On PGlite, whose one session runs one statement at
 * a time, the bound is the highest id the mark saw. On PostgreSQL a transaction in flight when the mark
 * was read can commit a lower id later, and the bound comes from an anchor (MarkAnchor) read before it.
 */
export interface MarkCheck {
  /** The base instant (ms). */
  base: number;
  /** The instant P (ms). */
  at: number;
  /** The tenant's highest period id the mark's snapshot saw. */
  lastId: string;
  /** Every period the mark's snapshot did not see has an id above this one (markCheckJson). */
  fromId: string;
  /** The mark's snapshot (pg_snapshot's text). */
  snap: string;
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

/**
 * What an earlier mark's statement read: the tenant's highest period id its snapshot saw, drawn before
 * that snapshot, and the transaction id the statement took after it. Every period id is drawn after its
 * transaction took its id (the column's default, migration 0022), so a transaction that took an id
 * above `xid` draws ids above `lastId`, whichever tenant's. A later snapshot in which every transaction
 * still in flight took an id above `xid` (its xmin above `xid`) has every period it does not see above
 * `lastId`.
 */
export interface MarkAnchor {
  lastId: string;
  xid: string;
}

/**
 * An anchor read now, outside any mark (read-marks.ts takes one when a process starts, so that its first
 * marks have a bound): the period sequence's last value, read before the transaction id is taken (the
 * inner row is made first), bounds every id drawn later, whichever tenant's. Autocommit: the statement's
 * transaction has no id before. Through the sequence, not the periods: no tenant scope, no scan.
 */
export async function readAnchor(executor: Executor): Promise<MarkAnchor> {
  const [anchor] = await queryRows<MarkAnchor>(
    executor,
    sql`select s.last_id::text as "lastId", pg_current_xact_id()::text as xid
          from (select case when is_called then last_value else last_value - 1 end as last_id
                  from device_status_periods_id_seq offset 0) s`,
  );
  return anchor;
}

/** What a read asks of the mark it reads next: its instant, and the anchors known (newest first). */
export interface NextMark {
  at: Date;
  anchors: MarkAnchor[];
}

/**
 * A mark's check as its statement answers it (markCheckJson): `fromId` null where no bound was known
 * (the mark is not kept), `xid` null where its transaction had an id before (no anchor).
 */
export type MarkCheckRead = Pick<MarkCheck, 'lastId' | 'snap' | 'removals'> & { fromId: string | null; xid: string | null };

/** What a statement answers of a mark it read (hour-mark.repository.ts markJson, kept-mark.repository.ts keptMarkJson). */
export type MarkRead<M extends MarkCheck> = Omit<M, 'root' | keyof MarkCheckRead> & MarkCheckRead;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * SQL json: the check of a mark read now, to P = `at` (MarkCheckRead), read from `from` (a kept mark, or
 * none).
 *
 * Its transaction id is taken here, after the statement's snapshot, and only where the transaction had
 * none before it (one that did may have taken it before the snapshot: then no id, no anchor). The inner
 * subquery's row is made before the outer one's projection, so the test comes first.
 *
 * Its id bound: where its snapshot had no transaction in flight and its statement took the next id
 * (PGlite always, PostgreSQL when idle), no transaction it did not see took an id before the statement's:
 * the highest id it saw. Otherwise the highest of the anchors whose transaction is older than every one
 * in flight, or the bound of the mark read from (a later snapshot sees all that an earlier one did);
 * null when there is none.
 */
export function markCheckJson(tenantId: number, base: number, at: number, from: MarkCheck | undefined, anchors: MarkAnchor[]): SQL {
  const ids = `{${anchors.map((a) => BigInt(a.lastId).toString()).join(',')}}`;
  const xids = `{${anchors.map((a) => BigInt(a.xid).toString()).join(',')}}`;
  const bound = sql`case when x.xid = pg_snapshot_xmax(s.snap) and pg_snapshot_xmin(s.snap) = pg_snapshot_xmax(s.snap)
                         then s.last_id::bigint
                         else greatest(${from ? sql`${from.fromId}::bigint` : sql`null::bigint`},
                                       (select max(a.last_id) from unnest(${ids}::bigint[], ${xids}::xid8[]) a(last_id, xid)
                                         where a.xid < pg_snapshot_xmin(s.snap))) end`;
  return sql`(select json_build_object('lastId', s.last_id, 'fromId', (${bound})::text, 'snap', s.snap::text,
                                       'xid', x.xid::text, 'removals', ${removalsIn(tenantId, base, at)})
                from (select pg_current_snapshot() as snap, ${lastPeriodId(tenantId)} as last_id) s
                left join (select pg_current_xact_id() as xid
                             from (select pg_current_xact_id_if_assigned() as had offset 0) h where h.had is null) x on true)`;
}

/** A mark's check from its statement's json (markCheckJson). */
export function markCheckOf(json: Record<'lastId' | 'fromId' | 'snap' | 'xid' | 'removals', string | null>): MarkCheckRead {
  return {
    lastId: String(json.lastId),
    fromId: json.fromId === null ? null : String(json.fromId),
    snap: String(json.snap),
    xid: json.xid === null ? null : String(json.xid),
    removals: String(json.removals),
  };
}

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
 * ids above its bound, less those its snapshot saw), each with the status of the period it closed when
 * the mark saw that one in progress (the device's previous period, ended at its start, written by a
 * transaction the mark's snapshot saw).
 */
export function markSinceCte(tenantId: number, mark: MarkCheck): SQL {
  const seen = (alias: string) => sql`pg_visible_in_snapshot(${sql.raw(alias)}.written_xid, ${mark.snap}::pg_snapshot)`;
  return sql`ms as materialized (
      select n.portal_id, n.status, n.started_at, n.ended_at, o.status as closed_status
        from device_status_periods n
        left join lateral (select o.id, o.status, o.written_xid from device_status_periods o
                            where o.tenant_id = n.tenant_id and o.device_id = n.device_id and o.ended_at = n.started_at
                              and o.started_at <= n.started_at and o.id < n.id
                            order by o.started_at desc, o.id desc limit 1) o on ${seen('o')}
       where n.tenant_id = ${tenantId} and n.id > ${mark.fromId}::bigint and not ${seen('n')}
         and n.started_at <= ${iso(mark.at)}::timestamptz)`;
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

import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { ONLINE } from '../../db/codes.ts';
import { observed } from './observed.repository.ts';

/**
 * Reliability from the uptime rollup (docs/uptime-rollup.md), exact to the microsecond.
 *
 * Let C(x) be the observed (or online) device-time from the beginning of history up to
 * instant x. A window's total is C(to) - C(from). For a UTC midnight D covered by the rollup
 * (D <= rolled_until) and any x >= D:
 *
 *   C(x) = C(D) + G(D, x)
 *   G(D, x) = atStart(D) * (x - D)                         periods in progress at D, as if they ran to x
 *           - sum over periods begun before D, ending in (D, x) of (x - end)   ... they stopped earlier
 *           + sum over periods begun in [D, x) of (min(end, x) - start)
 *
 * and C(Dt) - C(Df) is the sum of the rolled day integrals in [Df, Dt). So a window costs the
 * rollup rows of its days plus the periods that start or end in the partial days at its two
 * edges (two index ranges), never the periods wholly inside it.
 * "end" is the period's end clipped at its device's removal, exactly as the live computation.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const floorHour = (d: Date) => new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);
const dateText = (d: Date) => d.toISOString().slice(0, 10);

export interface RollupWindow {
  tenantId?: number;
  from: Date;
  to: Date;
  portalIds?: number[];
}

/** Days before `day` (a UTC midnight) and hours before `hour` are complete in the rollup. */
export interface RolledUntil {
  day: Date;
  hour: Date;
}

/**
 * The UTC midnight (and hour) up to which the rollup is complete for the tenant, or for every tenant
 * when `tenantId` is omitted (the earliest of them); null when some tenant has no rollup yet.
 *
 * Also turns JIT compilation off for the rest of the caller's transaction: the reliability
 * queries are estimated above jit_above_cost at size L, and compiling them took ~0.7 s of a
 * ~0.7 s query (EXPLAIN ANALYZE) while executing them takes milliseconds.
 */
export async function rolledUntil(executor: Executor, tenantId?: number): Promise<RolledUntil | null> {
  const rows = await queryRows<{ until: Date | string | null; hour: Date | string | null }>(
    executor,
    tenantId === undefined
      ? sql`select set_config('jit', 'off', true) as jit,
                   m.until, m.hour
              from (select case when bool_and(s.tenant_id is not null) then min(s.rolled_until) end as until,
                           case when bool_and(s.tenant_id is not null) then min(s.hours_rolled_until) end as hour
                      from tenants t left join uptime_rollup_state s on s.tenant_id = t.id) m`
      : sql`select set_config('jit', 'off', true) as jit,
                   s.rolled_until as until, s.hours_rolled_until as hour
              from (select 1) one left join uptime_rollup_state s on s.tenant_id = ${tenantId}`,
  );
  const row = rows[0];
  return row?.until && row.hour ? { day: new Date(row.until), hour: new Date(row.hour) } : null;
}

/** Microseconds of an interval expression, as an exact numeric. */
export const us = (interval: SQL) => sql`(extract(epoch from ${interval}) * 1000000)`;

export interface Conds {
  /** Restricts an alias's tenant_id / portal_id. */
  on(alias: 'p' | 'r' | 'k'): SQL;
}

/** A condition that a portal id column (of the alias's table) is among the portals asked for. */
export type PortalIn = (column: SQL, alias: 'p' | 'r' | 'k') => SQL;

/** Among `ids`: one int[] parameter. */
export const portalInList =
  (ids: number[]): PortalIn =>
  (column) =>
    sql`${column} = any(${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[])`;

/** Conditions on the window's tenant and portals; `portalIn` stands in for `win.portalIds` (e.g. the ids of a page read in the same statement). */
export function condsOf(win: RollupWindow, portalIn?: PortalIn): Conds {
  const among = portalIn ?? (win.portalIds ? portalInList(win.portalIds) : undefined);
  return {
    on: (alias) => {
      const a = sql.raw(alias);
      // All tenants: still a condition on tenant_id, so the (tenant_id, ...) indexes are used per tenant.
      const tenant =
        win.tenantId === undefined ? sql`${a}.tenant_id = any(array(select id from tenants))` : sql`${a}.tenant_id = ${win.tenantId}`;
      return among === undefined ? tenant : sql`${tenant} and ${among(sql`${a}.portal_id`, alias)}`;
    },
  };
}

/**
 * Observed periods (maintenance is not observed time: observed.repository.ts) with their end clipped at the
 * device's removal (only removed devices are joined in).
 */
function periodsFrom(where: SQL): SQL {
  return sql`select p.portal_id, p.status, p.started_at as s,
                    least(coalesce(p.ended_at, 'infinity'::timestamptz), coalesce(d.removed_at, 'infinity'::timestamptz)) as e
               from device_status_periods p
               left join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id and d.removed_at is not null
              where ${observed('p')} and ${where}`;
}

const NO_PERIODS = sql`select null::int as portal_id, 0::numeric as on_us, 0::numeric as obs_us where false`;

/** Where the counts at an instant come from: per-portal day rows, or the tenant's hour rows. */
type Grain = 'day' | 'hour';

function atStartRows(c: Conds, grain: Grain, at: Date): SQL {
  return grain === 'day'
    ? sql`select r.portal_id, r.online_at_start, r.observed_at_start from uptime_rollups r where ${c.on('r')} and r.day = ${dateText(at)}::date`
    : sql`select null::int as portal_id, r.online_at_start, r.observed_at_start from uptime_rollup_hours r where ${c.on('r')} and r.hour = ${at.toISOString()}::timestamptz`;
}

/**
 * Rows (portal_id, on_us, obs_us) summing to sign * G(day, x); `atStart` gives the counts in
 * progress at `day` (portal_id, online_at_start, observed_at_start): rolled rows of a grain.
 */
function edge(c: Conds, atStart: SQL, day: Date, x: Date, sign: 1 | -1, periods = edgePeriods(c, day, x, sign)): SQL {
  const spanUs = (x.getTime() - day.getTime()) * 1000;
  if (spanUs === 0) return NO_PERIODS;
  return sql`
    select a.portal_id, ${sign} * a.online_at_start * ${spanUs}::numeric as on_us, ${sign} * a.observed_at_start * ${spanUs}::numeric as obs_us
      from (${atStart}) a
    union all ${periods}`;
}

/**
 * The periods sign * G(day, x) is made of beyond the at-start counts (the caller's), as rows
 * (portal_id, status, s, e) with `e` clipped at the device's removal: `ended`, those begun before
 * `day` whose end is in (day, x); `begun`, those begun in [day, x) that last (e > s). The begun ones
 * also say they end at or after `day` (true of every one): the history is partitioned by its end
 * (db/period-partitions.ts), so the months that ended before `day` are pruned as the statement starts.
 */
export function edgeRows(c: Conds, day: Date, x: Date): { ended: SQL; begun: SQL } {
  const D = day.toISOString();
  const X = x.toISOString();
  return {
    ended: sql`select * from (${periodsFrom(sql`${c.on('p')} and p.started_at < ${D}::timestamptz
                               and p.ended_at > ${D}::timestamptz and p.ended_at < ${X}::timestamptz`)}
            union all
            select p.portal_id, p.status, p.started_at, d.removed_at
              from devices d
              join device_status_periods p on p.tenant_id = d.tenant_id and p.device_id = d.id
             where ${c.on('p')} and ${observed('p')} and d.removed_at > ${D}::timestamptz and d.removed_at < ${X}::timestamptz
               and p.started_at < ${D}::timestamptz and (p.ended_at is null or p.ended_at >= ${X}::timestamptz)) ended
     where e > ${D}::timestamptz and e < ${X}::timestamptz`,
    begun: sql`select * from (${periodsFrom(sql`${c.on('p')} and p.started_at >= ${D}::timestamptz and p.started_at < ${X}::timestamptz
                               and (p.ended_at is null or p.ended_at >= ${D}::timestamptz)`)}) begun
     where e > s`,
  };
}

/** Rows (portal_id, on_us, obs_us) of the periods' part of sign * G(day, x): edgeRows' two sets (or a kept tail's, keptTailPeriods) summed at `x`. */
function edgeSums(ended: SQL, begun: SQL, x: Date, sign: 1 | -1): SQL {
  const X = x.toISOString();
  return sql`
    select portal_id, ${-sign} * case when status = ${ONLINE} then ${us(sql`${X}::timestamptz - e`)} else 0 end,
           ${-sign} * ${us(sql`${X}::timestamptz - e`)}
      from (${ended}) ended
    union all
    select portal_id, ${sign} * case when status = ${ONLINE} then ${us(sql`least(e, ${X}::timestamptz) - s`)} else 0 end,
           ${sign} * ${us(sql`least(e, ${X}::timestamptz) - s`)}
      from (${begun}) begun`;
}

/** The part of sign * G(day, x) that comes from periods (the at-start counts times the span are the caller's), from the history. */
export function edgePeriods(c: Conds, day: Date, x: Date, sign: 1 | -1): SQL {
  if (x.getTime() === day.getTime()) return NO_PERIODS;
  const { ended, begun } = edgeRows(c, day, x);
  return edgeSums(ended, begun, x, sign);
}

/**
 * The same as edgePeriods(c, day, x, sign) from a kept window's tail (kept-window-build.repository.ts
 * keepWindow): its rows hold edgeRows(c, day, day + the hour a base answers), so those of the stretch
 * up to `x` within it are the same rows.
 */
export function keptTailPeriods(c: Conds, windowTo: Date, day: Date, x: Date, sign: 1 | -1): SQL {
  if (x.getTime() === day.getTime()) return NO_PERIODS;
  const T = windowTo.toISOString();
  const D = day.toISOString();
  const X = x.toISOString();
  const rows = (cond: SQL) =>
    sql`select k.portal_id, k.status, k.started_at as s, k.ended_at as e
          from kept_window_tails k where ${c.on('k')} and k.window_to = ${T}::timestamptz and ${cond}`;
  return edgeSums(
    rows(sql`k.started_at < ${D}::timestamptz and k.ended_at < ${X}::timestamptz`),
    rows(sql`k.started_at >= ${D}::timestamptz and k.started_at < ${X}::timestamptz`),
    x,
    sign,
  );
}

/**
 * Per portal: the online and observed periods in progress at instant `x` (begun before x, ending
 * after it, the end clipped at removal), from the day row of D = floor(x) (capped at `until`):
 * those in progress at D, minus the ones of them ending in (D, x], plus those begun in [D, x)
 * that run past x. Columns (portal_id, online_n, observed_n); sum them per portal.
 */
export function inProgressAt(c: Conds, x: Date, until: Date): SQL {
  const day = new Date(Math.min(floorDay(x).getTime(), until.getTime()));
  return sql`
    select r.portal_id, r.online_at_start as online_n, r.observed_at_start as observed_n
      from uptime_rollups r where ${c.on('r')} and r.day = ${dateText(day)}::date
    union all ${inProgressChange(c, day, x)}`;
}

/**
 * The observed periods begun before instant D whose end, clipped at the device's removal, is in (D, X]
 * (ISO texts): (portal_id, status, s, e). Those that end in (D, X] and those running past X whose
 * device was removed in (D, X].
 */
function endedIn(c: Conds, D: string, X: string): SQL {
  return sql`
    select * from (${periodsFrom(sql`${c.on('p')} and p.started_at < ${D}::timestamptz
                                      and p.ended_at > ${D}::timestamptz and p.ended_at <= ${X}::timestamptz`)}
                   union all
                   select p.portal_id, p.status, p.started_at, d.removed_at
                     from devices d
                     join device_status_periods p on p.tenant_id = d.tenant_id and p.device_id = d.id
                    where ${c.on('p')} and ${observed('p')} and d.removed_at > ${D}::timestamptz and d.removed_at <= ${X}::timestamptz
                      and p.started_at < ${D}::timestamptz and (p.ended_at is null or p.ended_at > ${X}::timestamptz)) x
     where e > ${D}::timestamptz and e <= ${X}::timestamptz`;
}

/**
 * Per portal: how the periods in progress changed from instant `from` to instant `x`: +1 for those
 * begun in [from, x) that run past x, -1 for those begun before `from` that end in (from, x] (the
 * end clipped at removal). Columns (portal_id, online_n, observed_n).
 */
export function inProgressChange(c: Conds, from: Date, x: Date): SQL {
  const D = from.toISOString();
  const X = x.toISOString();
  return sql`
    select portal_id, case when status = ${ONLINE} then 1 else 0 end as online_n, 1 as observed_n
      from (${periodsFrom(sql`${c.on('p')} and p.started_at >= ${D}::timestamptz and p.started_at < ${X}::timestamptz`)}) begun
     where e > ${X}::timestamptz
    union all
    select portal_id, case when status = ${ONLINE} then -1 else 0 end, -1
      from (${endedIn(c, D, X)}) ended`;
}

/**
 * edgePeriods(c, from, x, 1) and inProgressChange(c, from, x) in one walk of the periods: columns
 * (portal_id, on_us, obs_us, on_n, obs_n). The periods begun before `from` are taken ending in
 * (from, x] as inProgressChange takes them; one ending at exactly x adds nothing to the sums.
 */
export function edgeAndChange(c: Conds, from: Date, x: Date): SQL {
  const D = from.toISOString();
  const X = x.toISOString();
  return sql`
    select portal_id, -case when status = ${ONLINE} then ${us(sql`${X}::timestamptz - e`)} else 0 end as on_us,
           -${us(sql`${X}::timestamptz - e`)} as obs_us, case when status = ${ONLINE} then -1 else 0 end as on_n, -1 as obs_n
      from (${endedIn(c, D, X)}) ended
    union all
    select portal_id, case when status = ${ONLINE} then ${us(sql`least(e, ${X}::timestamptz) - s`)} else 0 end,
           ${us(sql`least(e, ${X}::timestamptz) - s`)},
           case when status = ${ONLINE} and e > ${X}::timestamptz then 1 else 0 end, case when e > ${X}::timestamptz then 1 else 0 end
      from (${periodsFrom(sql`${c.on('p')} and p.started_at >= ${D}::timestamptz and p.started_at < ${X}::timestamptz
                               and (p.ended_at is null or p.ended_at >= ${D}::timestamptz)`)}) begun
     where e > s`;
}

/** The tenant's (or every tenant's) periods in progress at a rolled `hour`, from its hour row: (online_at_start, observed_at_start). */
export function hourAtStart(tenantId: number | undefined, hour: Date): SQL {
  return atStartRows(condsOf({ tenantId, from: hour, to: hour }), 'hour', hour);
}

/** Per-portal online and observed microseconds over [from, to] from the day rows complete up to `until`. */
export function rolledDayParts(win: RollupWindow, until: Date): SQL {
  const c = condsOf(win);
  const dayOfFrom = new Date(Math.min(floorDay(win.from).getTime(), until.getTime()));
  const dayOfTo = new Date(Math.min(floorDay(win.to).getTime(), until.getTime()));
  return sql`
    select r.portal_id, r.online_us::numeric as on_us, r.observed_us::numeric as obs_us
      from uptime_rollups r
     where ${c.on('r')} and r.day >= ${dateText(dayOfFrom)}::date and r.day < ${dateText(dayOfTo)}::date
    union all ${edge(c, atStartRows(c, 'day', dayOfTo), dayOfTo, win.to, 1)}
    union all ${edge(c, atStartRows(c, 'day', dayOfFrom), dayOfFrom, win.from, -1)}`;
}

/**
 * The same over all portals from the tenant hour rows complete up to `until` (portal_id is null).
 * `toPeriods`: rows summing to the periods' part of the edge at `to` when the caller has them another
 * way (hour-mark.repository.ts); only for a `to` at or after `until`.
 */
export function rolledHourParts(win: RollupWindow, until: Date, toPeriods?: SQL): SQL {
  const c = condsOf({ ...win, portalIds: undefined });
  const hourOfFrom = new Date(Math.min(floorHour(win.from).getTime(), until.getTime()));
  const hourOfTo = new Date(Math.min(floorHour(win.to).getTime(), until.getTime()));
  return sql`
    select null::int as portal_id, r.online_us::numeric as on_us, r.observed_us::numeric as obs_us
      from uptime_rollup_hours r
     where ${c.on('r')} and r.hour >= ${hourOfFrom.toISOString()}::timestamptz and r.hour < ${hourOfTo.toISOString()}::timestamptz
    union all ${edge(c, atStartRows(c, 'hour', hourOfTo), hourOfTo, win.to, 1, toPeriods)}
    union all ${edge(c, atStartRows(c, 'hour', hourOfFrom), hourOfFrom, win.from, -1)}`;
}

/** The score of summed parts (on_us, obs_us), -1 when nothing was observed: the live aggregate's rounding. */
export const SCORE_OF_PARTS = sql`case when sum(obs_us) > 0 then round(100 * sum(on_us) / sum(obs_us), 1)::float8 else -1 end`;

/** Score per portal with observed time (callers fill -1 for the others), like the live aggregate. */
export async function rolledScoresByPortal(
  executor: Executor,
  win: RollupWindow,
  until: RolledUntil,
): Promise<{ portal_id: number; score: number }[]> {
  const rows = await queryRows<{ portal_id: number; score: number | string }>(
    executor,
    sql`select portal_id, ${SCORE_OF_PARTS} as score from (${rolledDayParts(win, until.day)}) parts group by portal_id having sum(obs_us) > 0`,
  );
  return rows.map((r) => ({ portal_id: Number(r.portal_id), score: Number(r.score) }));
}

/** One score over every portal of the tenant (or of every tenant), from the hour rows. */
export async function rolledScoreTotal(executor: Executor, win: RollupWindow, until: RolledUntil): Promise<number> {
  const rows = await queryRows<{ score: number | string }>(
    executor,
    sql`select ${SCORE_OF_PARTS} as score from (${rolledHourParts(win, until.hour)}) parts`,
  );
  return rows.length ? Number(rows[0].score) : -1;
}

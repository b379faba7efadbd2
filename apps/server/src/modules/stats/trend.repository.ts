import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { ONLINE } from '../../db/codes.ts';
import {
  condsOf,
  hourAtStart,
  inProgressChange,
  rolledHourParts,
  rolledUntil,
  SCORE_OF_PARTS,
  type RolledUntil,
} from './rollup-query.repository.ts';
import { markAtHour, markJson, markOf, markSums, periodsSinceSums, type HourMark } from './hour-mark.repository.ts';
import { markSinceCte, markStands, type MarkRead, type NextMark } from './mark.repository.ts';
import { observed } from './observed.repository.ts';

/**
 * Daily reliability trends (docs/history.md): the score of each of the 30 calendar days ending
 * today in a time zone, the last one up to now. Same ratio and rounding as every other score
 * (docs/stats-live.md "Reliability"); -1 for a day with nothing observed.
 */

export const TREND_DAYS = 30;

export interface TrendDay {
  date: string;
  score: number;
}

/** A day of the trend: its local date and the instants [from, to) it covers (the last one ends now). */
export interface TrendBound {
  date: string;
  from: Date;
  to: Date;
}

/** A tenant's goal and time zone, or undefined when the tenant is gone. */
export async function tenantTrendSettings(executor: Executor, tenantId: number): Promise<{ goal: number; timezone: string } | undefined> {
  const [row] = await queryRows<{ goal_score: number; timezone: string }>(
    executor,
    sql`select goal_score, timezone from tenants where id = ${tenantId} and deleted_at is null`,
  );
  return row ? { goal: Number(row.goal_score), timezone: row.timezone } : undefined;
}

/** The 30 local days ending with the one holding `now` in the zone `timezone` names: (day, ds, de) rows, oldest first. */
function trendDaysSql(timezone: SQL, now: Date): SQL {
  return sql`select to_char(d, 'YYYY-MM-DD') as day,
                    (d::timestamp at time zone ${timezone}) as ds,
                    ((d + 1)::timestamp at time zone ${timezone}) as de
               from generate_series(0, ${TREND_DAYS - 1}::int) i,
                    lateral (select ((${now.toISOString()}::timestamptz at time zone ${timezone})::date - ${TREND_DAYS - 1}::int + i) as d) x`;
}

const boundsOf = (rows: { day: string; ds: Date | string; de: Date | string }[], now: Date): TrendBound[] =>
  rows.map((r) => {
    const to = new Date(r.de);
    return { date: r.day, from: new Date(r.ds), to: to > now ? now : to };
  });

/** The 30 local days ending with the one holding `now` in `timezone`, as UTC instants. */
export async function trendBounds(executor: Executor, timezone: string, now: Date): Promise<TrendBound[]> {
  const rows = await queryRows<{ day: string; ds: Date | string; de: Date | string }>(
    executor,
    sql`select day, ds, de from (${trendDaysSql(sql`${timezone}`, now)}) days order by day`,
  );
  return boundsOf(rows, now);
}

/** What a tenant's trend needs before its scores: the goal, the zone, the days and the rollup's state. */
export interface TrendFrame {
  goal: number;
  timezone: string;
  bounds: TrendBound[];
  /** Where today ends (the last bound's `to` is now). */
  todayEnd: Date;
  /** Where the tenant's rollup is complete; null before its first run. */
  until: RolledUntil | null;
  /** Changes whenever the rollup's run changes its rows (its run's time and the last period it saw). */
  rollupVersion: string | null;
}

/** The frame's parts read on every call: its days and the rollup's state (trend-cache.ts checks them). */
interface FrameRow {
  goal_score: number;
  timezone: string;
  until: Date | string | null;
  hour: Date | string | null;
  run: Date | string | null;
  mark: number | string | null;
}

const FRAME_COLUMNS = sql`set_config('jit', 'off', true) as jit, t.goal_score, t.timezone,
               s.rolled_until as until, s.hours_rolled_until as hour, s.updated_at as run, s.period_id_mark as mark`;
const FRAME_FROM = (tenantId: number) =>
  sql`tenants t left join uptime_rollup_state s on s.tenant_id = t.id where t.id = ${tenantId} and t.deleted_at is null`;

function rolledOf(row: FrameRow): Pick<TrendFrame, 'goal' | 'timezone' | 'until' | 'rollupVersion'> {
  const until = row.until && row.hour ? { day: new Date(row.until), hour: new Date(row.hour) } : null;
  return {
    goal: Number(row.goal_score),
    timezone: row.timezone,
    until,
    rollupVersion: until && row.run ? `${new Date(row.run).toISOString()}#${row.mark}` : null,
  };
}

/**
 * The tenant's trend frame in one statement (one round trip instead of three: settings, bounds,
 * rollup state); undefined when the tenant is gone. jit off for the transaction, as rolledUntil.
 */
export async function tenantTrendFrame(executor: Executor, tenantId: number, now: Date): Promise<TrendFrame | undefined> {
  const [row] = await queryRows<FrameRow & { days: { day: string; ds: string; de: string }[] }>(
    executor,
    sql`select ${FRAME_COLUMNS},
               (select json_agg(json_build_object('day', day, 'ds', ds, 'de', de) order by day)
                  from (${trendDaysSql(sql`t.timezone`, now)}) days) as days
          from ${FRAME_FROM(tenantId)}`,
  );
  if (!row) return undefined;
  return { ...rolledOf(row), bounds: boundsOf(row.days, now), todayEnd: new Date(row.days[row.days.length - 1].de) };
}

/**
 * Today's part that only the rollup changes, for a day that begins on a whole hour the rollup has
 * reached: online and observed microseconds from its start to the rollup's hour, and the periods in
 * progress at that hour (online, observed). Numerics as text: they exceed a double's exact range at L.
 */
export interface TodayBase {
  onUs: string;
  obsUs: string;
  onAtHour: string;
  obsAtHour: string;
}

export async function todayBase(executor: Executor, tenantId: number, from: Date, until: RolledUntil): Promise<TodayBase> {
  const [row] = await queryRows<{
    on_us: string | number;
    obs_us: string | number;
    on_n: string | number | null;
    obs_n: string | number | null;
  }>(
    executor,
    sql`select coalesce(sum(x.on_us), 0) as on_us, coalesce(sum(x.obs_us), 0) as obs_us,
               (select sum(a.online_at_start) from (${hourAtStart(tenantId, until.hour)}) a) as on_n,
               (select sum(a.observed_at_start) from (${hourAtStart(tenantId, until.hour)}) a) as obs_n
          from (${rolledHourParts({ tenantId, from, to: until.hour }, until.hour)}) x`,
  );
  return { onUs: String(row.on_us), obsUs: String(row.obs_us), onAtHour: String(row.on_n ?? 0), obsAtHour: String(row.obs_n ?? 0) };
}

/** The frame as it stands now (its goal, zone, today and rollup state) and the scores of `indexes` of a frame read before. */
export interface TrendCheck extends Pick<TrendFrame, 'goal' | 'timezone' | 'until' | 'rollupVersion'> {
  /** Today's local date in the tenant's zone now. */
  today: string;
  /** The scores of the days asked for, computed on the frame read before: valid when it still stands. */
  scores: Map<number, number>;
  /** With a kept base: today's totals up to now and the periods in progress now (trend-cache.ts LiveToday). */
  todayNow?: TodayNow;
  /** Whether the mark read from stood (else today's figures mean nothing), and the next one when asked for. */
  mark: { stands: boolean; next?: MarkRead<HourMark> };
}

/** Today's online and observed microseconds up to an instant, and the online and observed periods in progress then. */
export interface TodayNow {
  onUs: bigint;
  obsUs: bigint;
  onN: bigint;
  obsN: bigint;
}

/** What a check computes on the frame read before: the days at `indexes`, or today alone from its kept base. */
/** `counts`: also the periods in progress now (for a live today: trend-cache.ts; not worth their reads otherwise). */
export type TrendLive = { indexes: number[] } | { today: number; base: TodayBase; counts: boolean };

/**
 * One statement for a trend whose settled days are kept (trend-cache.ts): the frame's parts that can
 * change (zone, today, rollup state) and, computed on `known` (the frame read before, today ending
 * now), the live days' scores: today from its kept base plus the periods since the rollup's hour,
 * or each live day from the hour rows and its edges. The caller uses the scores only when the frame
 * still stands; otherwise it reads the frame anew. Undefined when the tenant is gone.
 */
export async function tenantTrendCheck(
  executor: Executor,
  tenantId: number,
  now: Date,
  known: { bounds: TrendBound[]; until: RolledUntil },
  live: TrendLive,
  marked: { mark?: HourMark; next?: NextMark } = {},
): Promise<TrendCheck | undefined> {
  let scores: SQL;
  let todayNow = sql`null::json`;
  let next = sql`null::json`;
  let sums = sql`select 0::numeric as on_us, 0::numeric as obs_us, 0::numeric as on_n, 0::numeric as obs_n`;
  // With a kept base, today's periods since the rollup's hour are read from a mark of that hour (hour-mark.repository.ts).
  const stands = sql`(select ok from stands)`;
  if ('base' in live) {
    const { base } = live;
    const spanUs = (now.getTime() - known.until.hour.getTime()) * 1000;
    const c = condsOf({ tenantId, from: known.until.hour, to: now });
    const from = marked.mark ?? markAtHour(known.until.hour);
    // With a next mark, today is read from it: one walk up to its instant, and a short one after.
    const at = marked.next?.at ?? new Date(from.at);
    sums = markSums(c, from, at);
    const since = sql`select * from (${periodsSinceSums(c, at, now)}) m where ${stands}`;
    const changed = live.counts
      ? sql`select null::int as portal_id, nm.on_n as online_n, nm.obs_n as observed_n from nm
            union all ${inProgressChange(c, at, now)}`
      : sql`select null::int as portal_id, 0 as online_n, 0 as observed_n where false`;
    if (marked.next) next = sql`case when ${stands} then ${markJson(tenantId, from, marked.next)} end`;
    todayNow = sql`(select json_build_object('on', round(sum(on_us))::text, 'obs', round(sum(obs_us))::text,
                                             'onN', (${base.onAtHour}::numeric + coalesce(ch.on_n, 0))::text,
                                             'obsN', (${base.obsAtHour}::numeric + coalesce(ch.obs_n, 0))::text)
                      from (select ${base.onUs}::numeric + ${base.onAtHour}::numeric * ${spanUs}::numeric as on_us,
                                   ${base.obsUs}::numeric + ${base.obsAtHour}::numeric * ${spanUs}::numeric as obs_us
                            union all select e.on_us, e.obs_us from (${since}) e(portal_id, on_us, obs_us)) parts,
                           (select sum(x.online_n) as on_n, sum(x.observed_n) as obs_n from (${changed}) x) ch
                     group by ch.on_n, ch.obs_n)`;
    scores = sql`null::json`;
  } else if (live.indexes.length) {
    scores = sql`(select json_agg(json_build_object('i', i, 'score', score)) from (${trendScoresSql(tenantId, known.bounds, known.until, live.indexes)}) sc)`;
  } else {
    scores = sql`null::json`;
  }
  const [row] = await queryRows<
    FrameRow & {
      today: string;
      scores: { i: number; score: number }[] | null;
      today_now: Record<'on' | 'obs' | 'onN' | 'obsN', string> | null;
      stands: boolean;
      next: Parameters<typeof markOf>[0];
    }
  >(
    executor,
    sql`with ${marked.mark ? sql`${markSinceCte(tenantId, marked.mark)},` : sql``}
             stands as (select ${marked.mark ? markStands(tenantId, marked.mark) : sql`true`} as ok), nm as (${sums})
        select ${FRAME_COLUMNS},
               to_char((${now.toISOString()}::timestamptz at time zone t.timezone)::date, 'YYYY-MM-DD') as today,
               ${scores} as scores, ${todayNow} as today_now, ${stands} as stands, ${next} as next
          from ${FRAME_FROM(tenantId)}`,
  );
  if (!row) return undefined;
  const totals = row.today_now && {
    onUs: BigInt(row.today_now.on),
    obsUs: BigInt(row.today_now.obs),
    onN: BigInt(row.today_now.onN),
    obsN: BigInt(row.today_now.obsN),
  };
  const scoreMapOf = 'base' in live && totals ? new Map([[live.today, scoreOf(totals)]]) : scoreMap(row.scores ?? []);
  return {
    ...rolledOf(row),
    today: row.today,
    scores: scoreMapOf,
    ...(totals && 'base' in live && live.counts && { todayNow: totals }),
    mark: { stands: row.stands, next: markOf(row.next) },
  };
}

/**
 * The score of exact totals (microseconds as integers), as SCORE_OF_PARTS rounds it: round(100 * on / obs, 1)
 * half away from zero, -1 with nothing observed. Absent from the map (-1) when nothing was observed.
 */
export function scoreOf(t: { onUs: bigint; obsUs: bigint }): number {
  if (t.obsUs <= 0n) return -1;
  // Tenths of a point, rounded half up (both non-negative): floor((2000 * on + obs) / (2 * obs)).
  const tenths = (2000n * t.onUs + t.obsUs) / (2n * t.obsUs);
  return Number(tenths) / 10;
}

const scoreMap = (rows: { i: number | string; score: number | string }[]) => new Map(rows.map((r) => [Number(r.i), Number(r.score)]));

function scoresOf(bounds: TrendBound[], rows: { i: number | string; score: number | string }[]): TrendDay[] {
  const byDay = scoreMap(rows);
  return bounds.map((b, i) => ({ date: b.date, score: byDay.get(i) ?? -1 }));
}

/**
 * The company-wide trend (one tenant, or every tenant when `tenantId` is omitted) from the tenant
 * hour rollup: each day is its hour rows plus exact edges (none for a day whose midnights fall on
 * whole hours before the rollup's end; the last day's edge runs from the rollup's end to now).
 * Before the tenant's first rollup run: from the periods.
 */
export async function tenantTrend(executor: Executor, tenantId: number | undefined, bounds: TrendBound[]): Promise<TrendDay[]> {
  const until = await rolledUntil(executor, tenantId);
  const scores = await tenantTrendScores(
    executor,
    tenantId,
    bounds,
    until,
    bounds.map((_, i) => i),
  );
  return bounds.map((b, i) => ({ date: b.date, score: scores.get(i) ?? -1 }));
}

/**
 * The scores of the trend days at `indexes` (index into `bounds`; a day with nothing observed is
 * absent), given the rollup's state as `rolledUntil` read it.
 */
export async function tenantTrendScores(
  executor: Executor,
  tenantId: number | undefined,
  bounds: TrendBound[],
  until: RolledUntil | null,
  indexes: number[],
): Promise<Map<number, number>> {
  if (!indexes.length) return new Map();
  if (!until) return scoreMap(await livePerDay(executor, { tenantId }, bounds));
  return scoreMap(await queryRows<{ i: number; score: number | string }>(executor, trendScoresSql(tenantId, bounds, until, indexes)));
}

/** The rows (i, score) of the trend days at `indexes` from the hour rows complete up to `until` and their edges. */
function trendScoresSql(tenantId: number | undefined, bounds: TrendBound[], until: RolledUntil, indexes: number[]): SQL {
  const parts = indexes.map(
    (i) =>
      sql`select ${i}::int as i, on_us, obs_us from (${rolledHourParts({ tenantId, from: bounds[i].from, to: bounds[i].to }, until.hour)}) x${sql.raw(String(i))}`,
  );
  return sql`select i, ${SCORE_OF_PARTS} as score from (${sql.join(parts, sql` union all `)}) parts group by i`;
}

/**
 * A portal's trend, from its periods read through the portal's and each device's index: every
 * device's period in progress at the first day's start, and the periods begun since. The per-portal
 * rollup is per UTC day, and a local midnight inside a UTC day would need the tenant's periods
 * ending near it (docs/history.md "Trends").
 */
export async function portalTrend(executor: Executor, tenantId: number, portalId: number, bounds: TrendBound[]): Promise<TrendDay[]> {
  return scoresOf(bounds, await livePerDay(executor, { tenantId, portalId }, bounds));
}

/**
 * Online / observed microseconds per trend day from the periods (the reference, and the path before a rollup);
 * maintenance is not observed (observed.repository.ts). The period in progress at the start skips zero-length periods:
 * entering maintenance at the instant a period began leaves one with the same start as the next.
 */
async function livePerDay(
  executor: Executor,
  who: { tenantId?: number; portalId?: number },
  bounds: TrendBound[],
): Promise<{ i: number; score: number | string }[]> {
  if (!bounds.length) return [];
  const start = bounds[0].from.toISOString();
  const end = bounds[bounds.length - 1].to.toISOString();
  const tenantCond = (alias: string): SQL =>
    who.tenantId === undefined
      ? sql`${sql.raw(alias)}.tenant_id = any(array(select id from tenants))`
      : sql`${sql.raw(alias)}.tenant_id = ${who.tenantId}`;
  const portalCond = (alias: string): SQL => (who.portalId === undefined ? sql`true` : sql`${sql.raw(alias)}.portal_id = ${who.portalId}`);
  const days = sql.join(
    bounds.map((b, i) => sql`(${i}::int, ${b.from.toISOString()}::timestamptz, ${b.to.toISOString()}::timestamptz)`),
    sql`, `,
  );
  return queryRows<{ i: number; score: number | string }>(
    executor,
    sql`with days(i, ds, de) as (values ${days}),
        periods as (
          select p.status, p.started_at as s,
                 least(coalesce(p.ended_at, ${end}::timestamptz), ${end}::timestamptz, coalesce(d.removed_at, 'infinity'::timestamptz)) as e
            from device_status_periods p
            join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id
           where ${tenantCond('p')} and ${portalCond('p')} and ${observed('p')}
             and p.started_at >= ${start}::timestamptz and p.started_at < ${end}::timestamptz
          union all
          select q.status, q.started_at,
                 least(coalesce(q.ended_at, ${end}::timestamptz), ${end}::timestamptz, coalesce(d.removed_at, 'infinity'::timestamptz))
            from devices d
            cross join lateral (select p.status, p.started_at, p.ended_at from device_status_periods p
                                 where p.tenant_id = d.tenant_id and p.device_id = d.id and p.started_at < ${start}::timestamptz
                                   and (p.ended_at is null or p.ended_at > p.started_at)
                                 order by p.started_at desc limit 1) q
           where ${tenantCond('d')} and ${portalCond('d')} and ${observed('q')}
             and (q.ended_at is null or q.ended_at > ${start}::timestamptz)
        ),
        parts as (
          select days.i, periods.status,
                 extract(epoch from (least(periods.e, days.de) - greatest(periods.s, days.ds))) * 1000000 as us
            from days join periods on periods.s < days.de and periods.e > days.ds
        )
        select i, ${SCORE_OF_PARTS} as score
          from (select i, case when status = ${ONLINE} then us else 0 end as on_us, us as obs_us from parts where us > 0) x
         group by i`,
  );
}

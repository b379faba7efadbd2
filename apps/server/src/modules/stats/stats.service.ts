import { LIMITS, type StatsWindowQuery } from '@vigil/contracts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { reliabilityByPortal, reliabilityOfTenant } from './reliability.repository.ts';
import { findPortal, statusCounts, tenantGoalScore, typeTotals } from './stats.repository.ts';
import { readWithMarks, type Marks } from './read-marks.ts';
import type { HourMark } from './hour-mark.repository.ts';
import type { KeptMark } from './kept-mark.repository.ts';
import type { KeptTrend, LiveToday, TrendCache } from './trend-cache.ts';
import {
  portalTrend,
  tenantTrend,
  tenantTrendCheck,
  todayBase,
  scoreOf,
  type TodayNow,
  type TrendLive,
  tenantTrendFrame,
  tenantTrendScores,
  tenantTrendSettings,
  trendBounds,
  type TrendDay,
} from './trend.repository.ts';

/** What the routes serve as the repository answers it. */
export { deviceStatsPage, typeTotals } from './stats.repository.ts';

/** Default reliability window (docs/decisions.md 27): the last 30 days up to now. */
export const DEFAULT_WINDOW_MS = 30 * 86_400_000;

/** The window of a stats call: `to` defaults to now, `from` to 30 days before `to`. */
export function windowOf(query: StatsWindowQuery | undefined, now: Date): { from: Date; to: Date } {
  const to = query?.to ? new Date(query.to) : now;
  const from = query?.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_WINDOW_MS);
  return { from, to };
}

/**
 * Pulse summary: online/offline now, the reliability of every device of the tenant (or all
 * tenants) and the goal to compare it with. Every role reads the goal here, since only Admins
 * may read the tenant. Across all tenants (superAdmin) there is no one goal: the default, 95.
 */
export async function pulseSummary(tx: Executor, tenantId: number | undefined, win: { from: Date; to: Date }, marks?: Marks<HourMark>) {
  const counts = await statusCounts(tx, tenantId);
  const avgReliabilityScore = await reliabilityOfTenant(tx, { tenantId, ...win }, marks);
  const goalScore = (tenantId === undefined ? undefined : await tenantGoalScore(tx, tenantId)) ?? LIMITS.goalScoreDefault;
  return { ...counts, avgReliabilityScore, goalScore };
}

export async function customerDeviceSummary(tx: Executor, tenantId: number | undefined, portalId: number) {
  const portal = await findPortal(tx, tenantId, portalId);
  if (!portal) throw notFound();
  const [camera, intercom, access, alarm, environmental] = await typeTotals(tx, portal.tenantId, portal.id);
  const counts = await statusCounts(tx, portal.tenantId, portal.id);
  return {
    cameraCount: camera ?? 0,
    intercomCount: intercom ?? 0,
    accessCount: access ?? 0,
    alarmCount: alarm ?? 0,
    environmentalCount: environmental ?? 0,
    ...counts,
  };
}

/** Portal stats; goalScore is the portal's tenant's goal. */
export async function customerStats(
  tx: Executor,
  tenantId: number | undefined,
  portalId: number,
  win: { from: Date; to: Date },
  marks?: Marks<KeptMark>,
) {
  const portal = await findPortal(tx, tenantId, portalId);
  if (!portal) throw notFound();
  const counts = await statusCounts(tx, portal.tenantId, portal.id);
  const scores = await reliabilityByPortal(tx, { tenantId: portal.tenantId, portalIds: [portal.id], ...win }, marks);
  return { ...counts, reliabilityScore: scores.get(portal.id) ?? -1, goalScore: portal.goalScore };
}

export interface Trend {
  goal: number;
  days: TrendDay[];
}

/**
 * The company-wide daily trend (docs/history.md "Trends"): 30 days ending today in the tenant's time
 * zone, with its goal. Across all tenants (superAdmin) the days are UTC days and the goal the default.
 * A tenant's settled days come from `cache` while the frame they were read on stands (trend-cache.ts):
 * one statement checks it and reads the days after them, or none while today is live there.
 */
export async function companyTrend(
  read: ReadTx,
  tenantId: number | undefined,
  now: Date,
  cache?: TrendCache,
  marks?: Marks<HourMark>,
): Promise<Trend> {
  if (tenantId === undefined) {
    return read(async (tx) => {
      const bounds = await trendBounds(tx, 'UTC', now);
      return { goal: LIMITS.goalScoreDefault, days: await tenantTrend(tx, undefined, bounds) };
    });
  }
  const kept = cache?.get(tenantId);
  // A live today answers without the database, not even a transaction's opening.
  if (cache && kept?.live && now < kept.frame.todayEnd && cache.serves(tenantId, kept.live, now.getTime()))
    return trendFromLive(kept, kept.live, now);
  return read((tx) => readCompanyTrend(tx, tenantId, now, cache, marks));
}

/** Opens a read transaction for `fn` (the route's readTx): taken by calls that may answer without one. */
export type ReadTx = <T>(fn: (tx: Executor) => Promise<T>) => Promise<T>;

async function readCompanyTrend(tx: Executor, tenantId: number, now: Date, cache?: TrendCache, marks?: Marks<HourMark>): Promise<Trend> {
  const kept = cache?.get(tenantId);
  if (cache && kept && now < kept.frame.todayEnd) {
    const mark = cache.mark();
    const fromKept = await trendOnKeptFrame(tx, tenantId, now, kept, cache.live, marks);
    if (fromKept) {
      const { trend, todayNow } = fromKept;
      if (todayNow && cache.keepable(tenantId, mark, now.getTime()))
        cache.keep(tenantId, { ...kept, live: { ...todayNow, mark, at: now.getTime(), goal: trend.goal } });
      return trend;
    }
  }
  const frame = await tenantTrendFrame(tx, tenantId, now);
  if (!frame) throw notFound();
  const { bounds, until } = frame;
  const scores = await tenantTrendScores(
    tx,
    tenantId,
    bounds,
    until,
    bounds.map((_, i) => i),
  );
  if (until && frame.rollupVersion && cache) cache.keep(tenantId, await keptTrend(tx, tenantId, { ...frame, until }, scores));
  return { goal: frame.goal, days: bounds.map((b, i) => ({ date: b.date, score: scores.get(i) ?? -1 })) };
}

/** The trend from a live today (trend-cache.ts): its totals grown by the periods in progress over the time since. */
function trendFromLive(kept: KeptTrend, live: LiveToday, now: Date): Trend {
  const spanUs = BigInt(now.getTime() - live.at) * 1000n;
  const today = scoreOf({ onUs: live.onUs + live.onN * spanUs, obsUs: live.obsUs + live.obsN * spanUs });
  const last = kept.frame.bounds.length - 1;
  return {
    goal: live.goal,
    days: kept.frame.bounds.map((b, i) => ({ date: b.date, score: (i === last ? today : kept.settled[i]) ?? -1 })),
  };
}

/**
 * The trend from a kept frame and the days after its settled ones, or undefined when the frame no
 * longer stands; with a kept base, today's totals now as well.
 */
async function trendOnKeptFrame(
  tx: Executor,
  tenantId: number,
  now: Date,
  kept: KeptTrend,
  counts: boolean,
  marks?: Marks<HourMark>,
): Promise<{ trend: Trend; todayNow?: TodayNow } | undefined> {
  const { frame, settled, todayBase } = kept;
  const { until } = frame;
  const bounds = frame.bounds.map((b, i) => (i === frame.bounds.length - 1 ? { ...b, to: now } : b));
  const live: TrendLive = todayBase
    ? { today: bounds.length - 1, base: todayBase, counts }
    : { indexes: bounds.map((_, i) => i).slice(settled.length) };
  // Today from its kept base reads the periods since the rollup's hour: from a mark of that hour when one stands.
  const check =
    marks && todayBase
      ? await readWithMarks(marks, tenantId, until.hour, now, async (mark, next) => {
          const read = await tenantTrendCheck(tx, tenantId, now, { bounds, until }, live, { mark, next });
          return { stands: read?.mark.stands ?? true, next: read?.mark.next, value: read };
        })
      : await tenantTrendCheck(tx, tenantId, now, { bounds, until }, live);
  if (!check) throw notFound();
  const stands =
    check.timezone === frame.timezone &&
    check.today === bounds[bounds.length - 1].date &&
    check.rollupVersion === frame.rollupVersion &&
    check.until?.hour.getTime() === until.hour.getTime() &&
    check.until.day.getTime() === until.day.getTime();
  if (!stands) return undefined;
  return {
    trend: {
      goal: check.goal,
      days: bounds.map((b, i) => ({ date: b.date, score: (i < settled.length ? settled[i] : check.scores.get(i)) ?? -1 })),
    },
    todayNow: check.todayNow,
  };
}

/**
 * What to keep of a frame just read: the scores of its settled days (wholly before the rollup's hour,
 * on whole hours: no edge read from the periods; today never is) and, when today begins on a whole
 * hour the rollup reached, today's part up to that hour.
 */
async function keptTrend(tx: Executor, tenantId: number, frame: KeptTrend['frame'], scores: Map<number, number>): Promise<KeptTrend> {
  const { bounds, until } = frame;
  const wholeHour = (d: Date) => d.getTime() % 3_600_000 === 0;
  let settled = 0;
  while (
    settled < bounds.length - 1 &&
    bounds[settled].to <= until.hour &&
    wholeHour(bounds[settled].from) &&
    wholeHour(bounds[settled].to)
  )
    settled++;
  const today = bounds[bounds.length - 1];
  const baseKept = settled === bounds.length - 1 && wholeHour(today.from) && today.from <= until.hour;
  return {
    frame,
    settled: bounds.slice(0, settled).map((_, i) => scores.get(i)),
    todayBase: baseKept ? await todayBase(tx, tenantId, today.from, until) : undefined,
  };
}

/** A portal's daily trend in its tenant's time zone, with the tenant's goal. */
export async function customerTrend(tx: Executor, tenantId: number | undefined, portalId: number, now: Date): Promise<Trend> {
  const portal = await findPortal(tx, tenantId, portalId);
  if (!portal) throw notFound();
  const settings = await tenantTrendSettings(tx, portal.tenantId);
  if (!settings) throw notFound();
  const bounds = await trendBounds(tx, settings.timezone, now);
  return { goal: settings.goal, days: await portalTrend(tx, portal.tenantId, portal.id, bounds) };
}

import type { RolledUntil } from './rollup-query.repository.ts';
import type { TodayBase, TrendFrame } from './trend.repository.ts';

/**
 * A tenant's trend frame and the scores of its settled days, kept per process (docs/history.md
 * "Trends"). A day that ends before the rollup's hour, with both midnights on whole hours, is read
 * from the tenant's hour rows alone, and those change only when the rollup runs: kept with the frame
 * they were read on (its zone, days and rollup version: the run's time and the last period it saw),
 * its scores are what a fresh read would answer while that frame stands, and so is today's part up to
 * the rollup's hour. A call then asks in one statement whether the frame still stands and for the
 * rest of today (the periods since the rollup's hour), computed on it (trend.repository.ts
 * tenantTrendCheck). Measured: the trend call was the Pulse page's most
 * expensive (docs/performance.md).
 */
export interface KeptTrend {
  /** The frame the scores were read on; today's bound ends at `todayEnd` (a call reads it up to now). */
  frame: TrendFrame & { until: RolledUntil };
  /** How many of the first days are settled, and their scores (undefined: nothing observed). */
  settled: (number | undefined)[];
  /** Today's part up to the rollup's hour, when today begins on a whole hour it reached: a call then reads only the periods since. */
  todayBase?: TodayBase;
}

export interface TrendCache {
  get(tenantId: number): KeptTrend | undefined;
  keep(tenantId: number, kept: KeptTrend): void;
}

/** Tenants kept (the oldest dropped first): a few kilobytes each. */
const MAX_TENANTS = 10_000;

export function createTrendCache(maxTenants = MAX_TENANTS): TrendCache {
  const entries = new Map<number, KeptTrend>();
  return {
    get: (tenantId) => entries.get(tenantId),
    keep(tenantId, kept) {
      entries.delete(tenantId);
      if (entries.size >= maxTenants) entries.delete(entries.keys().next().value!);
      entries.set(tenantId, kept);
    },
  };
}

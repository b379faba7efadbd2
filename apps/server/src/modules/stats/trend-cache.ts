/**
 * The scores of a tenant's settled trend days, kept per process (docs/history.md "Trends"). A day
 * that ends before the rollup's hour, with both midnights on whole hours, is read from the tenant's
 * hour rows alone, and those change only when the rollup runs: kept under the rollup's version
 * (its run's time and the last period it saw), the zone and the first day, its scores are what a
 * fresh read would answer until the rollup runs again. Only the days after it (today) are read per
 * call. Measured: the Pulse page's trend call was its most expensive (docs/performance.md).
 */
export interface TrendCache {
  /** The kept scores of the first `count` days under `key`, or undefined. */
  settled(tenantId: number, key: string, count: number): (number | undefined)[] | undefined;
  keep(tenantId: number, key: string, scores: (number | undefined)[]): void;
}

/** Tenants kept (the oldest dropped first): a few hundred bytes each. */
const MAX_TENANTS = 10_000;

export function createTrendCache(maxTenants = MAX_TENANTS): TrendCache {
  const entries = new Map<number, { key: string; scores: (number | undefined)[] }>();
  return {
    settled(tenantId, key, count) {
      const entry = entries.get(tenantId);
      return entry && entry.key === key && entry.scores.length === count ? entry.scores : undefined;
    },
    keep(tenantId, key, scores) {
      entries.delete(tenantId);
      if (entries.size >= maxTenants) entries.delete(entries.keys().next().value!);
      entries.set(tenantId, { key, scores });
    },
  };
}

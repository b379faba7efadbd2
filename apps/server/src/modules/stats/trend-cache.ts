import type { RolledUntil } from './rollup-query.repository.ts';
import type { TodayBase, TodayNow, TrendFrame } from './trend.repository.ts';

/**
 * A tenant's trend frame and the scores of its settled days, kept per process (docs/history.md
 * "Trends"). A day that ends before the rollup's hour, with both midnights on whole hours, is read
 * from the tenant's hour rows alone, and those change only when the rollup runs: kept with the frame
 * they were read on (its zone, days and rollup version: the run's time and the last period it saw),
 * its scores are what a fresh read would answer while that frame stands, and so is today's part up to
 * the rollup's hour. A call then asks in one statement whether the frame still stands and for the
 * rest of today (the periods since the rollup's hour), computed on it (trend.repository.ts
 * tenantTrendCheck). Measured: the trend call was the Pulse page's most
 * expensive (docs/performance-choices.md "The Pulse page with and without the trend").
 *
 * Where every writer is in this process and hears its own notifications at commit (PGlite:
 * Database.notifiesAtCommit), the statement is skipped too while nothing changed for the tenant:
 * today's totals read at an instant, with the periods then in progress, give today's totals at any
 * later instant (each period in progress adds its length), until a status change, a portal or
 * settings change or a rollup run of the tenant is announced on the bus (`changed`). Changes made
 * outside the app (SQL by hand) show after at most LIVE_MS, when one statement reads today again.
 */
export interface KeptTrend {
  /** The frame the scores were read on; today's bound ends at `todayEnd` (a call reads it up to now). */
  frame: TrendFrame & { until: RolledUntil };
  /** How many of the first days are settled, and their scores (undefined: nothing observed). */
  settled: (number | undefined)[];
  /** Today's part up to the rollup's hour, when today begins on a whole hour it reached: a call then reads only the periods since. */
  todayBase?: TodayBase;
  /** Today read in full at an instant, while nothing has changed for the tenant since (`TrendCache.serves`). */
  live?: LiveToday;
}

/** Today's totals and the periods in progress at `at` (ms), read under the change mark `mark`, with the goal then. */
export interface LiveToday extends TodayNow {
  mark: number;
  at: number;
  goal: number;
}

/** How long a live today serves without a statement: the longest a change made outside the app goes unseen. */
export const LIVE_MS = 60_000;

export interface TrendCache {
  /** Whether live todays are kept (Database.notifiesAtCommit): only then is a check asked for the periods in progress. */
  readonly live: boolean;
  get(tenantId: number): KeptTrend | undefined;
  keep(tenantId: number, kept: KeptTrend): void;
  /** A change of the tenant's figures announced on the bus (`at`: the instant a status change took effect). */
  changed(tenantId: number, at?: number): void;
  /** The change mark now: taken before the statement whose answer may become a live today. */
  mark(): number;
  /** Whether today read under `mark` at instant `at` may be kept as live: nothing changed since the mark, nothing dated at or after `at`. */
  keepable(tenantId: number, mark: number, at: number): boolean;
  /** Whether a live today answers at `now` (ms) without a statement. */
  serves(tenantId: number, live: LiveToday, now: number): boolean;
}

/** Tenants kept (the oldest dropped first): a few kilobytes each. */
const MAX_TENANTS = 10_000;

/** `live`: whether live todays may be kept at all (Database.notifiesAtCommit). */
export function createTrendCache(opts: { live: boolean; maxTenants?: number }): TrendCache {
  const maxTenants = opts.maxTenants ?? MAX_TENANTS;
  const entries = new Map<number, KeptTrend>();
  // The last change of each tenant: its mark and the latest instant announced. A tenant dropped from
  // the map leaves its values in the floors, so it reads as changed at least that recently.
  const changes = new Map<number, { mark: number; at: number }>();
  let marks = 0;
  const floor = { mark: 0, at: 0 };
  const lastChange = (tenantId: number) => changes.get(tenantId) ?? floor;
  return {
    live: opts.live,
    get: (tenantId) => entries.get(tenantId),
    keep(tenantId, kept) {
      entries.delete(tenantId);
      if (entries.size >= maxTenants) entries.delete(entries.keys().next().value!);
      entries.set(tenantId, kept);
    },
    changed(tenantId, at = 0) {
      if (!opts.live) return;
      const before = lastChange(tenantId);
      changes.delete(tenantId);
      if (changes.size >= maxTenants) {
        const [oldest, change] = changes.entries().next().value!;
        changes.delete(oldest);
        floor.mark = Math.max(floor.mark, change.mark);
        floor.at = Math.max(floor.at, change.at);
      }
      changes.set(tenantId, { mark: ++marks, at: Math.max(before.at, Number.isFinite(at) ? at : 0) });
    },
    mark: () => marks,
    keepable: (tenantId, mark, at) => opts.live && lastChange(tenantId).mark <= mark && lastChange(tenantId).at < at,
    serves: (tenantId, live, now) => now >= live.at && now - live.at <= LIVE_MS && lastChange(tenantId).mark <= live.mark,
  };
}

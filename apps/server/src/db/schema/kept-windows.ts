import { bigint, index, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { tenants } from './accounts.ts';
import { tenantId, tstz } from './columns.ts';

/**
 * Kept reliability windows (docs/uptime-rollup.md, "Kept windows"): per portal, the online and
 * observed device-microseconds of the 30-day window ending at a recent instant T (the base), and
 * how many online / observed periods were in progress at T and at the window's start. A request's
 * window ending at now >= T is then the base plus the exact change since T at both ends (the
 * periods that start or end in those few minutes), so every portal is scored without reading 30
 * days of rollup rows. Written only by the uptime-rollup job; `window_to` is a generation: the
 * job inserts a new one and drops all but the previous one, so a reader that read the state just
 * before a refresh still finds the rows of the base it read.
 */
export const keptWindows = pgTable(
  'kept_windows',
  {
    tenantId: tenantId(),
    /** The base instant T (the window is [T - length, T]). */
    windowTo: tstz('window_to').notNull(),
    portalId: integer('portal_id').notNull(),
    onlineUs: bigint('online_us', { mode: 'number' }).notNull(),
    observedUs: bigint('observed_us', { mode: 'number' }).notNull(),
    /** Periods in progress at T (started before it, ending after it). */
    onlineAtTo: integer('online_at_to').notNull(),
    observedAtTo: integer('observed_at_to').notNull(),
    /** Periods in progress at the window's start, T - length. */
    onlineAtFrom: integer('online_at_from').notNull(),
    observedAtFrom: integer('observed_at_from').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.windowTo, t.portalId] })],
);

/**
 * A kept window's tail (docs/uptime-rollup.md, "The kept tail"): the observed periods that begin, or
 * end (clipped at their device's removal), in the hour after the window's start T - length, as the
 * live edge reads them from the history. A request's window starts at most that hour after it, and
 * that stretch lies 30 days back, so its periods no longer change (a period written later that
 * starts before T makes its portal unsettled, as for the base); reading them here keeps a request
 * off the partitioned history at that end. Generations as kept_windows'.
 */
export const keptWindowTails = pgTable(
  'kept_window_tails',
  {
    tenantId: tenantId(),
    windowTo: tstz('window_to').notNull(),
    portalId: integer('portal_id').notNull(),
    /** As the history's (observed only: never maintenance). */
    status: smallint('status').notNull(),
    startedAt: tstz('started_at').notNull(),
    /** Clipped at the device's removal; 'infinity' when open. */
    endedAt: tstz('ended_at').notNull(),
  },
  (t) => [index('kept_window_tails_portal_idx').on(t.tenantId, t.windowTo, t.portalId, t.startedAt)],
);

/** Per tenant: the current base (its window) and the highest period id it was computed with. */
export const keptWindowState = pgTable('kept_window_state', {
  tenantId: tenantId()
    .primaryKey()
    .references(() => tenants.id),
  windowFrom: tstz('window_from').notNull(),
  windowTo: tstz('window_to').notNull(),
  /** Periods with a higher id that start before `window_to` were not in the base (back-dated): their portals are scored from the rollup. */
  periodIdMark: bigint('period_id_mark', { mode: 'number' }).notNull(),
  updatedAt: tstz('updated_at').notNull(),
});

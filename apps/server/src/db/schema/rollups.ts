import { bigint, date, index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { tenants } from './accounts.ts';
import { tenantId, tstz } from './columns.ts';

/**
 * Uptime rollup (docs/uptime-rollup.md): per portal and UTC day, the online and observed
 * device-microseconds of that day, and how many online / observed device periods were in
 * progress at the day's first instant. Written only by the uptime-rollup job; reliability
 * answers a window as rolled days plus exact corrections at its two edges.
 * Rows exist for days up to and including the tenant's `rolled_until` day; the integrals of
 * that last day are 0 (it is not complete), only its counts are used.
 */
export const uptimeRollups = pgTable(
  'uptime_rollups',
  {
    tenantId: tenantId(),
    day: date('day', { mode: 'string' }).notNull(),
    portalId: integer('portal_id').notNull(),
    onlineUs: bigint('online_us', { mode: 'number' }).notNull(),
    observedUs: bigint('observed_us', { mode: 'number' }).notNull(),
    onlineAtStart: integer('online_at_start').notNull(),
    observedAtStart: integer('observed_at_start').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.portalId] }), index('uptime_rollups_portal_idx').on(t.tenantId, t.portalId, t.day)],
);

/**
 * The same per tenant (all portals together) and UTC hour, for the company-wide score: a window
 * then costs ~24 rows a day plus the periods starting or ending in its two partial hours.
 * Rows up to and including `hours_rolled_until` (the last full hour at the job's run).
 */
export const uptimeRollupHours = pgTable(
  'uptime_rollup_hours',
  {
    tenantId: tenantId(),
    hour: tstz('hour').notNull(),
    onlineUs: bigint('online_us', { mode: 'number' }).notNull(),
    observedUs: bigint('observed_us', { mode: 'number' }).notNull(),
    onlineAtStart: integer('online_at_start').notNull(),
    observedAtStart: integer('observed_at_start').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.hour] })],
);

/** Per tenant: how far the rollup is complete, and the period ids already looked at for back-dated history. */
export const uptimeRollupState = pgTable('uptime_rollup_state', {
  tenantId: tenantId()
    .primaryKey()
    .references(() => tenants.id),
  /** UTC midnight: days before it are complete in uptime_rollups; its own row holds the counts at that instant. */
  rolledUntil: tstz('rolled_until').notNull(),
  /** The hour up to which uptime_rollup_hours is complete (its own row holds the counts at that instant). */
  hoursRolledUntil: tstz('hours_rolled_until').notNull(),
  /** Highest period id seen by the last run, and by the run before (the scan for new periods starts there). */
  periodIdMark: bigint('period_id_mark', { mode: 'number' }).notNull(),
  periodIdPrevMark: bigint('period_id_prev_mark', { mode: 'number' }).notNull(),
  updatedAt: tstz('updated_at').notNull(),
});

import { integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { tenantId } from './columns.ts';

/**
 * Kept counts (docs/performance.md, lists): the lists and Pulse read totals from these small
 * tables instead of counting devices, cases and alerts per request. Maintained only by
 * statement-level triggers on the counted tables (migration 0005, `*_counts_apply()`), so every
 * writer (ingestion, offline sweep, case and alert rules, seeds) keeps them without knowing them.
 * Rows are per portal, deleted portals included: readers join live portals and tenants.
 */

/** Per portal and device type: devices not removed, and how many of them are online (status 1). */
export const deviceCounts = pgTable(
  'device_counts',
  {
    tenantId: tenantId(),
    portalId: integer('portal_id').notNull(),
    deviceType: smallint('device_type').notNull(),
    total: integer('total').notNull(),
    online: integer('online').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.portalId, t.deviceType] })],
);

/** Per portal and case status code (case_type 0..4): how many cases. */
export const caseCounts = pgTable(
  'case_counts',
  {
    tenantId: tenantId(),
    portalId: integer('portal_id').notNull(),
    caseType: smallint('case_type').notNull(),
    total: integer('total').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.portalId, t.caseType] })],
);

/** Per portal and alert type: how many alerts (resolved or not). */
export const alertCounts = pgTable(
  'alert_counts',
  {
    tenantId: tenantId(),
    portalId: integer('portal_id').notNull(),
    alertType: smallint('alert_type').notNull(),
    total: integer('total').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.portalId, t.alertType] })],
);

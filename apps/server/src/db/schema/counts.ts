import { bigint, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { tenantId } from './columns.ts';

/**
 * Kept counts (docs/performance-choices.md "Lists, every page different"): the lists and Pulse read totals from these small
 * tables instead of counting devices, cases and alerts per request. Maintained only by
 * statement-level triggers on the counted tables (migration 0005, `*_counts_apply()`), so every
 * writer (ingestion, offline sweep, case and alert rules, seeds) keeps them without knowing them.
 * Rows are per portal, deleted portals included: readers join live portals and tenants.
 */

/** Device types in their code order (contracts DEVICE_TYPES): the column prefixes of `device_counts`. */
export const DEVICE_COUNT_PREFIXES = ['camera', 'intercom', 'access', 'alarm', 'environmental'] as const;

/**
 * Per portal (one row, so a tenant's totals sum one row per portal): per device type, the devices
 * not removed (`<type>_total`) and how many of them are online, status 1 (`<type>_online`).
 */
export const deviceCounts = pgTable(
  'device_counts',
  {
    tenantId: tenantId(),
    portalId: integer('portal_id').notNull(),
    cameraTotal: integer('camera_total').notNull().default(0),
    cameraOnline: integer('camera_online').notNull().default(0),
    intercomTotal: integer('intercom_total').notNull().default(0),
    intercomOnline: integer('intercom_online').notNull().default(0),
    accessTotal: integer('access_total').notNull().default(0),
    accessOnline: integer('access_online').notNull().default(0),
    alarmTotal: integer('alarm_total').notNull().default(0),
    alarmOnline: integer('alarm_online').notNull().default(0),
    environmentalTotal: integer('environmental_total').notNull().default(0),
    environmentalOnline: integer('environmental_online').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.portalId] })],
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

/**
 * Per tenant: how many of its portals are live (not deleted). The Customers list's total for a tenant
 * in its default order (modules/portals/portals.repository.ts listTenantPortalsByName), read instead of
 * counting its portals at every page. Kept by a row trigger on portals (migration 0018,
 * `portal_counts_apply()`): portals are created and deleted one at a time.
 */
export const portalCounts = pgTable('portal_counts', {
  tenantId: tenantId().primaryKey(),
  live: integer('live').notNull(),
});

/**
 * Id marks (migration 0013, `*_id_marks_apply()`): per tenant and block of 1,024 ids (`bucket` = id
 * >> 10), how many cases or alerts it holds, deleted portals' included. A list in its default order
 * (newest id first) finds the block holding a later page's first row by summing a few rows, then
 * skips fewer than 1,024 rows inside it instead of every row before the page (db/kept-counts.ts
 * markedPageWithTotal). Kept by statement-level triggers on insert and delete (ids never change).
 */
export const caseIdMarks = pgTable(
  'case_id_marks',
  {
    tenantId: tenantId(),
    bucket: integer('bucket').notNull(),
    total: integer('total').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.bucket] })],
);

export const alertIdMarks = pgTable(
  'alert_id_marks',
  {
    tenantId: tenantId(),
    bucket: integer('bucket').notNull(),
    total: integer('total').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.bucket] })],
);

/**
 * Per tenant, a number that changes whenever its case (or alert) id marks change: a case or alert
 * added or deleted (migration 0019, bumped by `*_id_marks_apply()` with the marks, once per
 * transaction; no row yet reads as 0). The cases and alerts lists keep a tenant's marks in memory
 * with the number they were read at and use them only while it is unchanged (db/id-marks.ts).
 */
export const caseOrderVersions = pgTable('case_order_versions', {
  tenantId: tenantId().primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

export const alertOrderVersions = pgTable('alert_order_versions', {
  tenantId: tenantId().primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/**
 * Per tenant, a number that changes whenever its devices' name order may have changed: a device added,
 * deleted, renamed, removed (or back) or moved to another portal (migration 0015,
 * `device_order_versions_bump()`; no row yet reads as 0). A status flip or a heartbeat leaves it. The
 * devices list keeps marks of its name order in memory with the number they were read at and uses
 * them only while it is unchanged (modules/devices/name-marks.ts).
 */
export const deviceOrderVersions = pgTable('device_order_versions', {
  tenantId: tenantId().primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

import { sql } from 'drizzle-orm';
import { date, foreignKey, index, integer, pgTable, primaryKey, serial, smallint, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { createdAt, tenantId, tstz, updatedAt } from './columns.ts';
import { devices, portals } from './monitoring.ts';

const portalFk = (t: { tenantId: AnyPgColumn; portalId: AnyPgColumn }) =>
  foreignKey({ columns: [t.tenantId, t.portalId], foreignColumns: [portals.tenantId, portals.id] });

/** Service case; case_type is its status code 0..4 (docs/product.md "Codes and states"). */
export const cases = pgTable(
  'cases',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    portalId: integer('portal_id').notNull(),
    caseType: smallint('case_type').notNull().default(0),
    offlineCount: integer('offline_count').notNull().default(0),
    alertId: integer('alert_id'),
    createdBy: integer('created_by').references(() => users.id),
    completedAt: tstz('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    portalFk(t),
    index('cases_id_idx').on(t.id),
    index('cases_portal_idx').on(t.tenantId, t.portalId),
    index('cases_tenant_type_idx').on(t.tenantId, t.caseType),
    index('cases_tenant_created_idx').on(t.tenantId, t.createdAt),
    // List orders (cases.repository.ts): newest first, and one status code newest first; index-only for deep pages.
    index('cases_list_created_idx').on(t.tenantId, t.createdAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('cases_list_type_idx').on(t.tenantId, t.caseType, t.id),
  ],
);

export const caseDevices = pgTable(
  'case_devices',
  {
    tenantId: tenantId(),
    caseId: integer('case_id').notNull(),
    deviceId: integer('device_id').notNull(),
    releasedAt: tstz('released_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.caseId, t.deviceId] }),
    foreignKey({ columns: [t.tenantId, t.caseId], foreignColumns: [cases.tenantId, cases.id] }),
    foreignKey({ columns: [t.tenantId, t.deviceId], foreignColumns: [devices.tenantId, devices.id] }),
    index('case_devices_device_idx').on(t.tenantId, t.deviceId),
  ],
);

export const comments = pgTable(
  'comments',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    caseId: integer('case_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Sanitized HTML (allow-list of docs/decisions.md 31). */
    content: text('content').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.caseId], foreignColumns: [cases.tenantId, cases.id] }),
    index('comments_id_idx').on(t.id),
    index('comments_case_idx').on(t.tenantId, t.caseId),
  ],
);

/** Alert: type 0 Device Offline, 1 License Renewal Pending (90 Days). resolved_at null while open. */
export const alerts = pgTable(
  'alerts',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    portalId: integer('portal_id').notNull(),
    alertType: smallint('alert_type').notNull(),
    offlineCount: integer('offline_count').notNull().default(0),
    licenseId: integer('license_id'),
    critical: smallint('critical').notNull().default(0),
    resolvedAt: tstz('resolved_at'),
    /** Acknowledgment (docs/alerts.md): stops repeat notifications. The name is kept as it was then. */
    ackedAt: tstz('acked_at'),
    ackedByUserId: integer('acked_by_user_id'),
    ackedByName: text('acked_by_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    portalFk(t),
    index('alerts_id_idx').on(t.id),
    index('alerts_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('alerts_portal_idx').on(t.tenantId, t.portalId, t.alertType),
    // List orders (alerts.repository.ts): newest first, and one type newest first; index-only for deep pages.
    index('alerts_list_created_idx').on(t.tenantId, t.createdAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('alerts_list_type_idx').on(t.tenantId, t.alertType, t.id),
    // The offline-alert rule (every 5 s) reads only the open Device Offline alerts, a few among all alerts.
    index('alerts_open_offline_idx')
      .on(t.tenantId, t.id)
      .where(sql`${t.alertType} = 0 and ${t.resolvedAt} is null`),
  ],
);

export const alertDevices = pgTable(
  'alert_devices',
  {
    tenantId: tenantId(),
    alertId: integer('alert_id').notNull(),
    deviceId: integer('device_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.alertId, t.deviceId] }),
    foreignKey({ columns: [t.tenantId, t.alertId], foreignColumns: [alerts.tenantId, alerts.id] }),
    // No foreign key to devices (migration 0021_alert_devices_no_device_lock): its check locked every device an
    // alert opened or joined (KEY SHARE), the rows every report updates; devices are never deleted, only
    // removed (docs/alerts.md "Where it runs").
    // A device's alerts, newest last: the offline-alert rule reads each offline device's newest first and stops at
    // its open alert, one entry whatever the device's history (migration 0020_alert_devices_newest_first).
    index('alert_devices_device_idx').on(t.tenantId, t.deviceId, t.alertId),
  ],
);

export const licenses = pgTable(
  'licenses',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    portalId: integer('portal_id').notNull(),
    deviceType: smallint('device_type').notNull(),
    deviceCount: integer('device_count').notNull(),
    terms: smallint('terms').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    portalFk(t),
    index('licenses_id_idx').on(t.id),
    index('licenses_portal_idx').on(t.tenantId, t.portalId),
    index('licenses_end_idx').on(t.endDate),
  ],
);

export const reports = pgTable(
  'reports',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    portalId: integer('portal_id').notNull(),
    period: smallint('period').notNull(),
    config: smallint('config').array().notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    portalFk(t),
    index('reports_id_idx').on(t.id),
    index('reports_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);

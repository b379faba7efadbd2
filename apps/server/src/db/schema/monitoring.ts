import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from './accounts.ts';
import { createdAt, tenantId, tstz, updatedAt, xid8 } from './columns.ts';

/** A customer's portal (docs/product.md "Records"). */
export const portals = pgTable(
  'portals',
  {
    tenantId: tenantId().references(() => tenants.id),
    id: serial('id').notNull(),
    name: text('name').notNull(),
    /** AES-256-GCM with a key derived from APP_SECRET (security/secret-box.ts). */
    apiKeyEnc: text('api_key_enc').notNull(),
    webhookSecretEnc: text('webhook_secret_enc').notNull(),
    previousWebhookSecretEnc: text('previous_webhook_secret_enc'),
    previousSecretExpiresAt: tstz('previous_secret_expires_at'),
    deletedAt: tstz('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('portals_id_idx').on(t.id),
    index('portals_tenant_name_idx').on(t.tenantId, t.name),
    // A tenant's portals list in its default order (name): a page's rows skipped in index order, index-only (the
    // trailing name lets PostgreSQL read lower(name) from the index), instead of sorting every portal per page
    // (migration 0016; at L, 1,000 portals: 2.5 ms a page before).
    index('portals_list_name_idx')
      .on(t.tenantId, sql`lower(${t.name})`, t.id, t.name)
      .where(sql`${t.deletedAt} is null`),
    // The lists ask "has this tenant a deleted portal?" per request (db/kept-counts.ts): usually none.
    index('portals_deleted_idx')
      .on(t.tenantId, t.id)
      .where(sql`${t.deletedAt} is not null`),
  ],
);

export const devices = pgTable(
  'devices',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    portalId: integer('portal_id').notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    /**
     * The list's name order, `lower(name)`, as a column: the devices list seeks a later page from a kept
     * mark (modules/devices/name-marks.ts) through devices_list_name_idx, and under row-level security
     * PostgreSQL uses a condition as an index bound only when it calls leakproof functions, which
     * `lower()` is not and a column comparison is.
     */
    nameKey: text('name_key')
      .notNull()
      .generatedAlwaysAs(sql`lower(name)`),
    deviceType: smallint('device_type').notNull(),
    deviceModel: text('device_model').notNull().default(''),
    /** 1 online, 0 offline */
    status: smallint('status').notNull(),
    /**
     * `at` of the newest report applied to the current state. Deliberately not indexed:
     * every heartbeat moves it, and an unindexed column lets that update be HOT (no index
     * writes; the table's fillfactor leaves room on the page). The offline sweep scans
     * online devices every 30 s instead (docs/monitoring.md).
     */
    lastReportAt: tstz('last_report_at').notNull(),
    /** Last time seen online: the Last Check-in column. */
    lastOnline: tstz('last_online'),
    statusSince: tstz('status_since').notNull(),
    firstSeenAt: tstz('first_seen_at').notNull(),
    /** The open case holding this device (isClosed 0), null when none. */
    openCaseId: integer('open_case_id'),
    removedAt: tstz('removed_at'),
    /**
     * Start of the device's maintenance (docs/maintenance.md): while set, its open period is a status-2
     * (maintenance) period that began then, reports and the sweep move `status` only, and nothing finds it
     * among the offline devices. Null when no maintenance window covers it.
     */
    maintenanceSince: tstz('maintenance_since'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('devices_external_key').on(t.tenantId, t.portalId, t.externalId),
    foreignKey({ columns: [t.tenantId, t.portalId], foreignColumns: [portals.tenantId, portals.id] }),
    index('devices_id_idx').on(t.id),
    // No index names `status` (not even a partial index's predicate): a status flip then stays a HOT update
    // like a heartbeat, with no entry in any of these indexes (migration 0008; at L on PostgreSQL batches of 100
    // flips measured 15,518-16,036 events/s before, 19,860-21,096 with no index for the offline devices at all,
    // 16,693-17,530 with the periods' one below: docs/decisions.md 8). The offline devices are found through their open
    // offline periods instead (periods_open_offline_idx below, db/offline-periods.ts), the per-status
    // counts through the kept counts (schema/counts.ts).
    index('devices_tenant_type_idx').on(t.tenantId, t.deviceType),
    index('devices_tenant_name_idx').on(t.tenantId, t.name),
    // The devices list's default order (name), read in index order so a page (and a deep page's skipped rows) is
    // index-only (a middle page at L, 50,000 rows skipped: a sort of every device, 183 ms, before migration 0007; 6.5 ms
    // after), and a later page seeks its kept mark here (migration 0015: name_key above).
    index('devices_list_name_idx')
      .on(t.tenantId, t.nameKey, t.id)
      .where(sql`${t.removedAt} is null`),
    index('devices_open_case_idx').on(t.tenantId, t.openCaseId),
    // The devices in maintenance (few): the maintenance job reads them every tick. A heartbeat or a flip does not
    // change maintenance_since, so it stays a HOT update.
    index('devices_maintenance_idx')
      .on(t.tenantId, t.id)
      .where(sql`${t.maintenanceSince} is not null`),
    // Reliability clips periods at removal: the rollup reads only the (few) removed devices (stats/rollup-query.repository.ts).
    index('devices_removed_idx')
      .on(t.tenantId, t.removedAt, t.id)
      .where(sql`${t.removedAt} is not null`),
  ],
);

/**
 * Status history: one row per period of one status; ended_at null while current. Partitioned by RANGE on
 * ended_at (migration 0014, which drizzle-kit cannot write): the open periods in the default partition
 * device_status_periods_open, the closed ones in monthly partitions (jobs/period-partitions.job.ts), so each
 * maintenance step works on one partition (db/pglite-maintenance.ts). No primary key: it would have to
 * include ended_at, null while open; ids are unique through their sequence.
 */
export const deviceStatusPeriods = pgTable(
  'device_status_periods',
  {
    tenantId: tenantId(),
    // The writing transaction takes its id before the period draws its own (migration 0022): the marks of
    // the current hour bound the periods their snapshot did not see by ids (stats/mark.repository.ts).
    id: bigint('id', { mode: 'number' })
      .notNull()
      .default(sql`case when pg_current_xact_id() is not null then nextval('device_status_periods_id_seq') end`),
    deviceId: integer('device_id').notNull(),
    portalId: integer('portal_id').notNull(),
    status: smallint('status').notNull(),
    startedAt: tstz('started_at').notNull(),
    endedAt: tstz('ended_at'),
    /**
     * The transaction that inserted the period (migration 0022; '0' for those written before it: seen by every
     * snapshot). Unlike xmin it stays when the period is closed (a move into its month's partition).
     */
    writtenXid: xid8('written_xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    // The reads of the periods added since a mark (stats/kept-window-query.repository.ts, rollup-build.repository.ts).
    index('periods_tenant_id_idx').on(t.tenantId, t.id),
    foreignKey({ columns: [t.tenantId, t.deviceId], foreignColumns: [devices.tenantId, devices.id] }),
    index('periods_device_idx').on(t.tenantId, t.deviceId, t.startedAt),
    index('periods_portal_idx').on(t.tenantId, t.portalId, t.startedAt),
    // Reliability's exact window edges (stats/rollup-query.repository.ts) read only the periods that start or end near an
    // edge; the trailing columns let those reads be index-only (the periods of one hour are spread over the heap).
    index('periods_tenant_started_idx').on(t.tenantId, t.startedAt, t.endedAt, t.portalId, t.status, t.deviceId),
    // Closed periods only (migration 0014): the open ones are read in their own partition, and a statement that closes a
    // period names `ended_at is null` to reach that partition alone; without statistics the planner took this index for it.
    index('periods_tenant_ended_idx')
      .on(t.tenantId, t.endedAt, t.startedAt, t.portalId, t.status, t.deviceId)
      .where(sql`${t.endedAt} is not null`),
    // The offline devices: a device not removed has exactly one open period, of its current status (status 2 in maintenance; ingestion,
    // the sweep, removal and restore keep it: docs/monitoring.md). The offline-alert rule, live events, case
    // opening and the offline filter read only these (few) entries. Closing a period is never a HOT update anyway
    // (ended_at is indexed above), so this costs an offline period's insert one entry and nothing else (about a tenth
    // of the flips' throughput at L, measured with and without it). The trailing
    // started_at (the device's status_since) makes live events' reads index-only: without it the planner preferred
    // the covering periods_tenant_ended_idx and walked every open period of the tenant.
    index('periods_open_offline_idx')
      .on(t.tenantId, t.portalId, t.deviceId, t.startedAt)
      .where(sql`${t.endedAt} is null and ${t.status} = 0`),
  ],
);

/** Reports older than a device's current state: kept, never applied to state or history. */
export const lateDeviceReports = pgTable(
  'late_device_reports',
  {
    tenantId: tenantId(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    deviceId: integer('device_id').notNull(),
    status: smallint('status').notNull(),
    reportedAt: tstz('reported_at').notNull(),
    receivedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('late_reports_device_idx').on(t.tenantId, t.deviceId)],
);

/** Accepted webhook ids: a second delivery of the same id has no effect (Standard Webhooks). */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    tenantId: tenantId(),
    portalId: integer('portal_id').notNull(),
    webhookId: text('webhook_id').notNull(),
    deviceCount: integer('device_count').notNull(),
    receivedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.portalId, t.webhookId] }), index('webhook_messages_received_idx').on(t.receivedAt)],
);

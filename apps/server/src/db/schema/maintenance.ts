import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt, tenantId, tstz, updatedAt } from './columns.ts';

/**
 * Maintenance windows (docs/maintenance.md): planned time during which a portal's devices (all of them,
 * `device_ids` empty, or the listed ones) open no alert, send no notification and count neither as
 * online nor as offline. `recurrence` 0 none, 1 daily, 2 weekly: later occurrences repeat the window's
 * local wall-clock times in the tenant's time zone. The job (jobs/maintenance.job.ts) turns an
 * occurrence into status-2 periods of the covered devices (`devices.maintenance_since`).
 */
export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    portalId: integer('portal_id').notNull(),
    deviceIds: integer('device_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    startsAt: tstz('starts_at').notNull(),
    endsAt: tstz('ends_at').notNull(),
    recurrence: smallint('recurrence').notNull().default(0),
    reason: text('reason').notNull().default(''),
    createdByUserId: integer('created_by_user_id'),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('maintenance_windows_id_idx').on(t.id),
    index('maintenance_windows_portal_idx').on(t.tenantId, t.portalId, t.startsAt),
  ],
);

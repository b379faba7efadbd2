import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, idParams, isoDateTime, listOf, okBody } from './envelope.ts';
import { idFilter, listQuery } from './list-query.ts';

/**
 * Maintenance windows (docs/maintenance.md, decisions §12): planned time during which a portal's devices
 * (all of them, or the chosen ones) open no alert, send no notification, and count neither as online nor
 * as offline in any reliability figure. One-off or recurring (daily, weekly) in the tenant's time zone.
 */
export const MAINTENANCE_RECURRENCES = ['none', 'daily', 'weekly'] as const;
export type MaintenanceRecurrence = (typeof MAINTENANCE_RECURRENCES)[number];

/** A status period's code (device history): the device statuses plus maintenance. */
export const PERIOD_STATUS = { offline: 0, online: 1, maintenance: 2 } as const;

export const MAINTENANCE_LIMITS = {
  /** Longest window (and longest weekly occurrence). */
  maxDays: 7,
  /** Longest occurrence of a daily window: occurrences never overlap. */
  dailyMaxHours: 24,
  reasonMax: 500,
  deviceIdsMax: 5000,
} as const;

export const MAINT_MSG = {
  customerId: 'Please select a portal',
  instant: 'startsAt and endsAt must be ISO 8601 timestamps',
  order: 'startsAt must be before endsAt',
  tooLong: `A maintenance window must not exceed ${MAINTENANCE_LIMITS.maxDays} days`,
  dailyTooLong: `A daily window must not exceed ${MAINTENANCE_LIMITS.dailyMaxHours} hours`,
  /** 400: a one-off window whose end has passed would change nothing (history is never rewritten). */
  ended: 'This maintenance window has already ended.',
  recurrence: `recurrence must be one of: ${MAINTENANCE_RECURRENCES.join(', ')}`,
  reason: `Reason must be at most ${MAINTENANCE_LIMITS.reasonMax} characters`,
  deviceIds: 'deviceIds must be a list of device ids',
  /** 400: a listed device is not a (current) device of the window's portal, another tenant's included. */
  unknownDevice: 'A selected device does not belong to this portal.',
  created: 'Maintenance window scheduled.',
  updated: 'Maintenance window updated.',
  deleted: 'Maintenance window deleted.',
  deleteConfirm: 'Are you sure you want to delete this maintenance window?',
} as const;

const instant = z.iso.datetime({ offset: true, error: MAINT_MSG.instant });
const recurrenceField = z.enum(MAINTENANCE_RECURRENCES, { error: MAINT_MSG.recurrence });
const reasonField = z.string({ error: MAINT_MSG.reason }).trim().max(MAINTENANCE_LIMITS.reasonMax, MAINT_MSG.reason);
const deviceIdsField = z
  .array(
    z.number({ error: MAINT_MSG.deviceIds }).int(MAINT_MSG.deviceIds).positive(MAINT_MSG.deviceIds).max(2147483647, MAINT_MSG.deviceIds),
    {
      error: MAINT_MSG.deviceIds,
    },
  )
  .max(MAINTENANCE_LIMITS.deviceIdsMax, MAINT_MSG.deviceIds)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

/** The length rules of a window: start before end, at most 7 days, a daily one at most 24 hours. */
export function maintenanceSpanProblem(startsAt: string, endsAt: string, recurrence: MaintenanceRecurrence): string | undefined {
  const span = Date.parse(endsAt) - Date.parse(startsAt);
  if (!(span > 0)) return MAINT_MSG.order;
  if (span > MAINTENANCE_LIMITS.maxDays * 86_400_000) return MAINT_MSG.tooLong;
  if (recurrence === 'daily' && span > MAINTENANCE_LIMITS.dailyMaxHours * 3_600_000) return MAINT_MSG.dailyTooLong;
  return undefined;
}

export const maintenanceWindowSchema = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  /** Empty: every device of the portal, including devices that appear later. */
  deviceIds: z.array(z.number().int()),
  /** The (first) occurrence. */
  startsAt: isoDateTime,
  endsAt: isoDateTime,
  recurrence: z.enum(MAINTENANCE_RECURRENCES),
  reason: z.string(),
  createdByName: z.string(),
  createdAt: isoDateTime,
  /** An occurrence covers now. */
  inForce: z.boolean(),
  /** The occurrence in force now, else the next one; null when a one-off window has ended. */
  nextStartsAt: isoDateTime.nullable(),
  nextEndsAt: isoDateTime.nullable(),
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

export const createMaintenanceBody = z
  .strictObject({
    customerId: z
      .number({ error: MAINT_MSG.customerId })
      .int(MAINT_MSG.customerId)
      .positive(MAINT_MSG.customerId)
      .max(2147483647, MAINT_MSG.customerId),
    deviceIds: deviceIdsField.default([]),
    startsAt: instant,
    endsAt: instant,
    recurrence: recurrenceField.default('none'),
    reason: reasonField.default(''),
  })
  .superRefine((body, ctx) => {
    const problem = maintenanceSpanProblem(body.startsAt, body.endsAt, body.recurrence);
    if (problem) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: problem });
  });
export type CreateMaintenanceBody = z.output<typeof createMaintenanceBody>;
export type CreateMaintenanceInput = z.input<typeof createMaintenanceBody>;

/** Edit: any subset of the fields but the portal; the server checks the span rules on the result. */
export const updateMaintenanceBody = z.strictObject({
  deviceIds: deviceIdsField.optional(),
  startsAt: instant.optional(),
  endsAt: instant.optional(),
  recurrence: recurrenceField.optional(),
  reason: reasonField.optional(),
});
export type UpdateMaintenanceBody = z.output<typeof updateMaintenanceBody>;
export type UpdateMaintenanceInput = z.input<typeof updateMaintenanceBody>;

export const MAINTENANCE_SORT = ['id', 'startsAt', 'endsAt', 'customerName', 'createdAt'] as const;
export const maintenanceListQuery = listQuery({
  sort: MAINTENANCE_SORT,
  filter: {
    customerId: idFilter,
    /** Windows covering this device: the whole-portal windows of its portal and those that list it. */
    deviceId: idFilter,
    /** true: only windows that can still cover a device (in force, upcoming, or recurring). */
    current: z.boolean({ error: 'current must be true or false' }).optional(),
  },
});

export const maintenanceEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/maintenance-windows',
    tag: 'maintenance',
    summary: 'Maintenance windows of the tenant (range, sort, filter customerId/deviceId/current)',
    query: maintenanceListQuery,
    response: listOf(maintenanceWindowSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/maintenance-windows',
    tag: 'maintenance',
    summary: 'Schedule a window for a portal (deviceIds empty = every device); in force at once when it covers now',
    body: createMaintenanceBody,
    response: dataOf(maintenanceWindowSchema),
    status: 201,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/maintenance-windows/:id',
    tag: 'maintenance',
    summary: 'One maintenance window',
    params: idParams,
    response: dataOf(maintenanceWindowSchema),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v0/api/maintenance-windows/:id',
    tag: 'maintenance',
    summary: 'Edit a window: any subset of its fields but the portal; applies from now',
    params: idParams,
    body: updateMaintenanceBody,
    response: dataOf(maintenanceWindowSchema),
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v0/api/maintenance-windows/:id',
    tag: 'maintenance',
    summary: 'Delete a window; devices it covers leave maintenance now, their history stays',
    params: idParams,
    response: okBody,
  }),
};

import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, idParams, isoDateTime, listOf } from './envelope.ts';
import { idFilter, listQuery, qFilter } from './list-query.ts';

/** A device (docs/product.md "Records"); removed devices are never listed. */
export const device = z.object({
  id: z.number().int(),
  name: z.string(),
  /** 0 Camera, 1 Intercom, 2 Access Control, 3 Alarm, 4 Environmental. */
  deviceType: z.number().int(),
  deviceModel: z.string(),
  /** 1 online, 0 offline: what the device last reported, also while in maintenance. */
  status: z.number().int(),
  /** A maintenance window covers the device now (docs/maintenance.md): it opens no alert and its time is not scored. */
  inMaintenance: z.boolean(),
  /** Last time seen online (the 'Last Check-in' column); null when never. */
  lastOnline: isoDateTime.nullable(),
  /** 0 when the device is in an open case, else 1 (docs/product.md "Records"). */
  isClosed: z.number().int(),
  /** The open case holding the device, or null. */
  caseId: z.number().int().nullable(),
  customerId: z.number().int(),
  customerName: z.string(),
  tenantName: z.string(),
  createdAt: isoDateTime,
});
export type Device = z.infer<typeof device>;

export const DEVICE_SORT = ['name', 'deviceType', 'deviceModel', 'status', 'lastOnline', 'customerName', 'createdAt'] as const;
export type DeviceSortField = (typeof DEVICE_SORT)[number];

export const deviceListQuery = listQuery({
  sort: DEVICE_SORT,
  filter: {
    customerId: idFilter,
    caseId: idFilter,
    alertId: idFilter,
    status: z.union([z.literal(0), z.literal(1)], { error: 'status must be 0 or 1' }).optional(),
    deviceType: z.number().int().min(0, 'deviceType must be 0 to 4').max(4, 'deviceType must be 0 to 4').optional(),
    q: qFilter,
  },
});
export type DeviceListQuery = z.output<typeof deviceListQuery>;

/**
 * The device page's identity (docs/history.md): the device row plus when it was first seen, its
 * reliability over the last 30 days, since when it has had its status, its open alert, and the goal.
 */
export const deviceDetail = device.extend({
  /** The `at` of the device's first report. */
  firstSeen: isoDateTime,
  /** Since when the device has had its current status (its open period's start). */
  statusSince: isoDateTime,
  /** Percent with one decimal over the last 30 days; -1 when nothing was observed. */
  reliabilityScore: z.number(),
  /** The tenant's reliability goal (percent). */
  goalScore: z.number(),
  /** The newest open Device Offline alert holding the device, or null. */
  openAlertId: z.number().int().nullable(),
});
export type DeviceDetail = z.infer<typeof deviceDetail>;

/** At most 90 days of history per call (docs/history.md). */
export const HISTORY_MAX_DAYS = 90;
const historyInstant = z.iso.datetime({ offset: true, error: 'from and to must be ISO 8601 timestamps' });
export const deviceHistoryQuery = z
  .strictObject({ from: historyInstant.optional(), to: historyInstant.optional() })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { error: 'from must be before to' })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= HISTORY_MAX_DAYS * 86_400_000, {
    error: `The range must not exceed ${HISTORY_MAX_DAYS} days`,
  });
export type DeviceHistoryQuery = z.infer<typeof deviceHistoryQuery>;

/** One stretch of one status: 0 offline, 1 online, 2 maintenance (PERIOD_STATUS). */
export const statusPeriod = z.object({ status: z.number().int(), from: isoDateTime, to: isoDateTime });
export type StatusPeriod = z.infer<typeof statusPeriod>;
export const deviceHistory = z.object({ periods: z.array(statusPeriod) });
export type DeviceHistory = z.infer<typeof deviceHistory>;

export const deviceEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/devices',
    summary: 'Devices (filters: customerId, caseId, alertId, status, deviceType, q)',
    tag: 'devices',
    query: deviceListQuery,
    response: listOf(device),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/devices/:id',
    summary: 'One device, with its first report, 30-day reliability and open alert',
    tag: 'devices',
    params: idParams,
    response: dataOf(deviceDetail),
  }),
  history: endpoint({
    method: 'GET',
    path: '/v0/api/devices/:id/history',
    summary: "A device's status periods over [from, to] (default the last 7 days, at most 90)",
    tag: 'devices',
    params: idParams,
    query: deviceHistoryQuery,
    response: dataOf(deviceHistory),
  }),
};

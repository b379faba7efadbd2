import { z } from 'zod';
import { caseCreationResponse, idField, serviceDeviceSchema } from './cases.ts';
import { endpoint } from './endpoint.ts';
import { ALERT_TYPES } from './enums.ts';
import { dataOf, idParams, isoDateTime, listOf } from './envelope.ts';
import { idFilter, listQuery, qFilter } from './list-query.ts';
import { MSG } from './messages.ts';

export const ALERT_MSG = {
  noLicenseDue: 'This customer has no license ending within 90 days.',
  licenseAlertsOpen: "A License Renewal Pending alert is already open for each of this customer's licenses ending within 90 days.",
  /** Add Alert (Device Offline) on a portal with no offline device: 422, nothing created (docs/alerts.md). */
  noOfflineDevices: 'This portal has no offline devices.',
  /** Acknowledge on a resolved alert that nobody acknowledged: 409 (docs/alerts.md). */
  ackResolved: 'This alert is already resolved; only an open alert can be acknowledged.',
  /** The Acknowledge button's success toast. */
  acknowledged: 'Alert acknowledged.',
} as const;

export const alertSchema = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  tenantName: z.string(),
  /** 0 Device Offline, 1 License Renewal Pending (90 Days). */
  alertType: z.number().int(),
  /** Devices affected: the offline devices held (type 0) or the license's device count (type 1). */
  offlineCount: z.number().int(),
  /** 0 resolved, 1 open, 2 open for more than 24 hours or critical (computed at read time). */
  status: z.number().int(),
  createdAt: isoDateTime,
  resolvedAt: isoDateTime.nullable(),
  licenseId: z.number().int().nullable(),
  /** When and by whom the alert was acknowledged (docs/alerts.md); null until then. The name is kept as it was. */
  ackedAt: isoDateTime.nullable(),
  ackedByName: z.string().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertDeviceSchema = serviceDeviceSchema.extend({
  /** Whether the device is in an open case now (the 'Is In Case' column; `caseId` links to it). */
  isInCase: z.boolean(),
});
export type AlertDevice = z.infer<typeof alertDeviceSchema>;

const alertTypeCode = z
  .number()
  .int()
  .min(0)
  .max(ALERT_TYPES.length - 1);

export const alertsListQuery = listQuery({
  sort: ['id', 'createdAt', 'customerName', 'alertType', 'offlineCount', 'status'],
  filter: { customerId: idFilter, alertType: alertTypeCode.optional(), status: z.number().int().min(0).max(2).optional(), q: qFilter },
});

export const alertDevicesListQuery = listQuery({
  sort: ['id', 'name', 'deviceType', 'deviceModel', 'status', 'lastOnline'],
  filter: { status: z.number().int().min(0).max(1).optional(), q: qFilter },
});

/** The Add Alert dialog (docs/product.md "Validation"): customer first, then type, each with the product's message. */
export const createAlertBody = z.strictObject({
  customerId: idField(MSG.selectCustomerForAlert),
  alertType: z
    .number({ error: MSG.selectAlertType })
    .int(MSG.selectAlertType)
    .min(0, MSG.selectAlertType)
    .max(ALERT_TYPES.length - 1, MSG.selectAlertType),
});

export const alertEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/alert-stats',
    tag: 'alerts',
    summary: 'Alerts (range, sort, filter); the Alarms dropdown reads the 5 newest',
    query: alertsListQuery,
    response: listOf(alertSchema),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/alert-stats/:id',
    tag: 'alerts',
    summary: 'One alert',
    params: idParams,
    response: dataOf(alertSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/alert-stats',
    tag: 'alerts',
    summary:
      "Add an alert by hand: type 0 adds the portal's offline devices to its open alert (opening one; 422 when none is offline), type 1 its licenses ending within 90 days",
    body: createAlertBody,
    response: dataOf(alertSchema),
    status: 201,
  }),
  devices: endpoint({
    method: 'GET',
    path: '/v0/api/alert-stats/devices/:id',
    tag: 'alerts',
    summary: "An alert's devices with whether each is in an open case",
    params: idParams,
    query: alertDevicesListQuery,
    response: listOf(alertDeviceSchema),
  }),
  createCase: endpoint({
    method: 'POST',
    path: '/v0/api/alert-stats/:id/case-stats',
    tag: 'alerts',
    summary: "Open a case from the alert's devices that are offline and not in an open case",
    params: idParams,
    body: z.strictObject({ customerId: z.unknown().optional(), alertId: z.unknown().optional() }).nullish(),
    response: caseCreationResponse,
    status: 201,
  }),
  ack: endpoint({
    method: 'POST',
    path: '/v0/api/alert-stats/:id/ack',
    tag: 'alerts',
    summary: 'Acknowledge an open alert (who and when; acknowledging again keeps the first)',
    params: idParams,
    body: z.strictObject({}).nullish(),
    response: dataOf(alertSchema),
  }),
};

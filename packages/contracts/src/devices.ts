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
  /** 1 online, 0 offline. */
  status: z.number().int(),
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
    summary: 'One device',
    tag: 'devices',
    params: idParams,
    response: dataOf(device),
  }),
};

import { z } from 'zod';
import { device } from './devices.ts';
import { endpoint } from './endpoint.ts';
import { CASE_STATUSES } from './enums.ts';
import { dataOf, idParams, isoDateTime, listOf } from './envelope.ts';
import { idFilter, listQuery, qFilter } from './list-query.ts';
import { MSG } from './messages.ts';

export const CASE_MSG = {
  caseType: `caseType must be a status code from 0 to ${CASE_STATUSES.length - 1}`,
  customerMismatch: 'customerId must be the customer of the path.',
} as const;

/** An id sent as a JSON number or a digit string (form selects send either); anything else fails with `message`. */
export const idField = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int(message).positive(message).max(2147483647, message),
  );

/** A case status code (docs/product.md "Codes and states": display codes 0..4). */
export const caseTypeCode = z
  .number({ error: CASE_MSG.caseType })
  .int(CASE_MSG.caseType)
  .min(0, CASE_MSG.caseType)
  .max(CASE_STATUSES.length - 1, CASE_MSG.caseType);

export const caseSchema = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  tenantName: z.string(),
  /** Devices the case holds (captured when it was opened). */
  offlineCount: z.number().int(),
  caseType: z.number().int(),
  createdAt: isoDateTime,
  completedAt: isoDateTime.nullable(),
  alertId: z.number().int().nullable(),
});
export type Case = z.infer<typeof caseSchema>;

/** A device row as the case and alert device tables show it: the devices list row (docs/product.md "Records"). */
export const serviceDeviceSchema = device.omit({ tenantName: true, createdAt: true });
export type ServiceDevice = z.infer<typeof serviceDeviceSchema>;

/** Answer of a case creation that found nothing to hold (the web client reads data.error / data.msg). */
export const caseRefusalSchema = z.object({ error: z.literal(true), msg: z.string() });
export const caseCreationResponse = dataOf(z.union([caseSchema, caseRefusalSchema]));

export const caseStatusCountSchema = z.object({ caseType: z.number().int(), count: z.number().int() });

export const casesListQuery = listQuery({
  sort: ['id', 'customerName', 'offlineCount', 'caseType', 'createdAt'],
  filter: {
    customerId: idFilter,
    caseType: caseTypeCode.optional(),
    /** true: open cases (status 0..3); false: Completed (4). */
    open: z.boolean({ error: 'open must be true or false' }).optional(),
    q: qFilter,
  },
});

export const caseDevicesListQuery = listQuery({
  sort: ['id', 'name', 'deviceType', 'deviceModel', 'status', 'lastOnline'],
  filter: { status: z.number().int().min(0).max(1).optional(), deviceType: z.number().int().min(0).max(4).optional(), q: qFilter },
});

/** `{customerId}` is optional; when sent it must be the path's customer. */
export const createCaseBody = z
  .strictObject({
    customerId: idField(MSG.selectCustomerForCase).optional(),
  })
  .nullish();

/** The web client patches "status or caseType"; both name the status code. */
export const updateCaseBody = z
  .strictObject({ caseType: caseTypeCode.optional(), status: caseTypeCode.optional() })
  .refine((b) => b.caseType !== undefined || b.status !== undefined, { message: CASE_MSG.caseType });

export const caseEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/case-stats',
    tag: 'cases',
    summary: 'Cases (range, sort, filter)',
    query: casesListQuery,
    response: listOf(caseSchema),
  }),
  sumup: endpoint({
    method: 'GET',
    path: '/v0/api/case-stats/sumup',
    tag: 'cases',
    summary: 'Open cases by status (0..3, zeros included)',
    response: listOf(caseStatusCountSchema),
  }),
  quarterCompleted: endpoint({
    method: 'GET',
    path: '/v0/api/case-stats/quarter-completed',
    tag: 'cases',
    summary: 'Cases completed in the current calendar quarter (tenant time zone)',
    response: dataOf(z.object({ count: z.number().int() })),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/case-stats/:id',
    tag: 'cases',
    summary: 'One case',
    params: idParams,
    response: dataOf(caseSchema),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v0/api/case-stats/:id',
    tag: 'cases',
    summary: 'Set the case status (4 releases its devices)',
    params: idParams,
    body: updateCaseBody,
    response: dataOf(caseSchema),
  }),
  devices: endpoint({
    method: 'GET',
    path: '/v0/api/case-stats/:id/case-devices',
    tag: 'cases',
    summary: 'Devices of a case',
    params: idParams,
    query: caseDevicesListQuery,
    response: listOf(serviceDeviceSchema),
  }),
  listOfCustomer: endpoint({
    method: 'GET',
    path: '/v0/api/customers/:id/case-stats',
    tag: 'cases',
    summary: "A portal's cases",
    params: idParams,
    query: casesListQuery,
    response: listOf(caseSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/customers/:id/case-stats',
    tag: 'cases',
    summary: "Open a case holding the portal's offline devices not already in an open case (201; 200 with data.error when none)",
    params: idParams,
    body: createCaseBody,
    response: caseCreationResponse,
    status: 201,
  }),
};

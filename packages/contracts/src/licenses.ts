import { z } from 'zod';
import { idField } from './cases.ts';
import { endpoint } from './endpoint.ts';
import { DEVICE_TYPES, LICENSE_TERMS } from './enums.ts';
import { dataOf, idParams, isoDateTime, listOf, okBody } from './envelope.ts';
import { idFilter, listQuery, qFilter } from './list-query.ts';
import { MSG } from './messages.ts';

export const LICENSE_MSG = {
  termsValue: `Terms must be one of ${LICENSE_TERMS.join(', ')} years`,
  startDateValue: 'Start date must be a real date written YYYY-MM-DD',
  deviceCountMax: 'Device count must be at most 1000000',
  customerMismatch: 'customerId must be the customer of the path.',
} as const;

export const licenseSchema = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  deviceType: z.number().int(),
  deviceCount: z.number().int(),
  terms: z.number().int(),
  startDate: z.string().describe('YYYY-MM-DD'),
  endDate: z.string().describe('YYYY-MM-DD: startDate + terms years (Feb 29 -> Feb 28)'),
  /** Days from today (tenant time zone) to endDate; negative once expired. */
  daysRemaining: z.number().int(),
  createdAt: isoDateTime,
});
export type License = z.infer<typeof licenseSchema>;

/** A YYYY-MM-DD string naming a day that exists (no 2025-02-29). */
export function isRealDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && y <= 2999 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Add New License dialog (docs/web-pages.md "Pages", docs/product.md "Validation"). customerName is ignored; customerId, when sent, must be the path's. */
export const createLicenseBody = z.strictObject({
  deviceType: z
    .number({ error: MSG.deviceType })
    .int(MSG.deviceType)
    .min(0, MSG.deviceType)
    .max(DEVICE_TYPES.length - 1, MSG.deviceType),
  terms: z.number({ error: MSG.terms }).refine((v) => (LICENSE_TERMS as readonly number[]).includes(v), LICENSE_MSG.termsValue),
  deviceCount: z.number({ error: MSG.deviceCount }).int(MSG.deviceCount).min(1, MSG.deviceCount).max(1_000_000, LICENSE_MSG.deviceCountMax),
  startDate: z.string({ error: MSG.startDate }).trim().min(1, MSG.startDate).refine(isRealDate, LICENSE_MSG.startDateValue),
  customerId: idField(LICENSE_MSG.customerMismatch).optional(),
  customerName: z.string().max(200).optional(),
});

const licenseColumns = ['id', 'customerName', 'deviceType', 'deviceCount', 'terms', 'startDate', 'endDate', 'daysRemaining'] as const;

/** `customerId` as a plain parameter (docs/decisions.md 16) or in the filter. */
export const licensesListQuery = listQuery({
  sort: licenseColumns,
  filter: {
    customerId: idFilter,
    deviceType: z
      .number()
      .int()
      .min(0)
      .max(DEVICE_TYPES.length - 1)
      .optional(),
    q: qFilter,
  },
  extra: { customerId: z.coerce.number().int().positive().max(2147483647).optional() },
});

export const licenseEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/licenses',
    tag: 'licenses',
    summary: 'Licenses (customerId, range, sort, filter)',
    query: licensesListQuery,
    response: listOf(licenseSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/customers/:id/licenses',
    tag: 'licenses',
    summary: 'Add a license to a portal (the path holds the portal id)',
    params: idParams,
    body: createLicenseBody,
    response: dataOf(licenseSchema),
    status: 201,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v0/api/licenses/:id',
    tag: 'licenses',
    summary: 'Delete a license (resolves its renewal alert)',
    params: idParams,
    response: okBody,
  }),
};

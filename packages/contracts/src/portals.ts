import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, idParams, isoDateTime, listOf } from './envelope.ts';
import { requiredText } from './fields.ts';
import { listQuery, qFilter } from './list-query.ts';
import { MSG } from './messages.ts';

/**
 * Portals (docs/product.md "Records"; docs/decisions.md 19, 23, 36). A portal is a
 * customer of the tenant; `customerId`/`customerName` repeat `id`/`name` because
 * the product's screens read both names.
 */
export const PORTAL_MSG = {
  paymentRequired: 'Subscribe to add more portals: your free portals are used up.',
} as const;

export const portal = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  name: z.string(),
  customerName: z.string(),
  tenantId: z.number().int(),
  tenantName: z.string(),
  /** `{PUBLIC_URL}/v0/webhooks/portals/{id}`: where the device cloud posts signed reports. */
  webhookUrl: z.string(),
  /** Devices of each type, online or not (removed devices excluded). */
  cameraCount: z.number().int(),
  intercomCount: z.number().int(),
  accessCount: z.number().int(),
  alarmCount: z.number().int(),
  environmentalCount: z.number().int(),
  /** Percent with one decimal over the last 30 days; -1 when nothing was observed. */
  reliabilityScore: z.number(),
  createdAt: isoDateTime,
});
export type Portal = z.infer<typeof portal>;

/**
 * One portal as its detail page and Edit dialog read it. `apiKey` is in full and
 * `webhookSecret` present only for roles that may edit portals (Admin, Project
 * Manager); others get the key masked ('••••' + last 4) and a null secret.
 */
export const portalDetail = portal.extend({
  apiKey: z.string(),
  webhookSecret: z.string().nullable(),
});
export type PortalDetail = z.infer<typeof portalDetail>;

/** Add Portal / Edit Portal form (docs/product.md "Validation"): both fields required with the product's messages. */
export const portalForm = z.strictObject({
  name: requiredText(MSG.customerName),
  apiKey: requiredText(MSG.apiKey, 500),
});
export type PortalForm = z.infer<typeof portalForm>;

export const PORTAL_SORT = [
  'name',
  'customerName',
  'tenantName',
  'cameraCount',
  'intercomCount',
  'accessCount',
  'alarmCount',
  'environmentalCount',
  'reliabilityScore',
  'createdAt',
] as const;
export type PortalSortField = (typeof PORTAL_SORT)[number];

export const portalListQuery = listQuery({ sort: PORTAL_SORT, filter: { q: qFilter } });

export const customerOption = z.object({ id: z.number().int(), name: z.string() });

/**
 * Header search: `filter={"name":"ab"}`. Fewer than 2 characters (after trimming)
 * answers an empty list, as the web client clears its results then.
 */
export const customerSearchQuery = z.strictObject({
  filter: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'filter must be valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(z.strictObject({ name: z.string().max(200).optional() }, { error: 'filter must be a JSON object like {"name":"ab"}' }))
    .optional(),
});

/** Empty body of the secret rotation (the web client may send `{}` or nothing). */
export const rotateSecretBody = z.strictObject({}).nullish();

export const portalEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/customers',
    summary: 'Portals table: per-type device counts and reliability (superAdmin: every tenant)',
    tag: 'portals',
    query: portalListQuery,
    response: listOf(portal),
  }),
  all: endpoint({
    method: 'GET',
    path: '/v0/api/customers/all',
    summary: 'Every portal of the caller’s tenant as {id, name}, for selects',
    tag: 'portals',
    response: listOf(customerOption),
  }),
  search: endpoint({
    method: 'GET',
    path: '/v0/api/customers/search',
    summary: 'Header customer search: prefix matches first, then contains; at most 20',
    tag: 'portals',
    query: customerSearchQuery,
    response: listOf(customerOption),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/customers/:id',
    summary: 'One portal with its webhook URL (secret and full API key only for editors)',
    tag: 'portals',
    params: idParams,
    response: dataOf(portalDetail),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/customers',
    summary: 'Add Portal: generates the webhook secret; 402 without a free portal, free tier or subscription',
    tag: 'portals',
    body: portalForm,
    response: dataOf(portalDetail),
    status: 201,
  }),
  update: endpoint({
    method: 'POST',
    path: '/v0/api/customers/:id',
    summary: 'Edit Portal: name and API key',
    tag: 'portals',
    params: idParams,
    body: portalForm,
    response: dataOf(portalDetail),
  }),
  rotateSecret: endpoint({
    method: 'POST',
    path: '/v0/api/customers/:id/webhook-secret',
    summary: 'Rotate the webhook secret; the previous one stays valid for 24 hours',
    tag: 'portals',
    params: idParams,
    body: rotateSecretBody,
    response: dataOf(portalDetail),
  }),
};

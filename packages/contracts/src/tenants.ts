import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, idParams, isoDateTime, listOf, okBody } from './envelope.ts';
import { requiredText } from './fields.ts';
import { listQuery, qFilter } from './list-query.ts';
import { MSG } from './messages.ts';

/** Subscription state of a tenant, as billing keeps it. */
export const SUBSCRIPTION_STATUSES = ['none', 'trialing', 'active', 'past_due', 'canceled'] as const;

/** Minutes without a report before a device counts as offline (docs/decisions.md 26). */
export const HEARTBEAT_TIMEOUT_MINUTES = { min: 1, max: 10080 } as const;

export const TENANT_MSG = {
  goalScoreRange: 'Reliability score goal must be a number from 0 to 100',
  heartbeatTimeout: `Heartbeat timeout must be a whole number of minutes from ${HEARTBEAT_TIMEOUT_MINUTES.min} to ${HEARTBEAT_TIMEOUT_MINUTES.max}`,
  timezone: 'Time zone must be an IANA time zone name such as Europe/Berlin',
  freeCount: 'Free portal count must be a whole number of at least 0',
  freeTier: 'Free tier must be true or false',
  discount: 'Discount must be a percentage from 0 to 100',
  platformFieldsOnly: 'Only the platform administrator can set freeCount, freeTier and discount.',
  alreadyInTenant: 'You already belong to a tenant.',
} as const;

/** True when the runtime knows the IANA zone (the same check the server and browser use). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Reliability score goal: required, a number 0..100 ('Please input reliability score goal'). */
export const goalScoreField = z.number({ error: MSG.goalScore }).min(0, TENANT_MSG.goalScoreRange).max(100, TENANT_MSG.goalScoreRange);

const heartbeatTimeoutField = z
  .number({ error: TENANT_MSG.heartbeatTimeout })
  .int(TENANT_MSG.heartbeatTimeout)
  .min(HEARTBEAT_TIMEOUT_MINUTES.min, TENANT_MSG.heartbeatTimeout)
  .max(HEARTBEAT_TIMEOUT_MINUTES.max, TENANT_MSG.heartbeatTimeout);

const timezoneField = z
  .string({ error: TENANT_MSG.timezone })
  .trim()
  .min(1, TENANT_MSG.timezone)
  .max(64, TENANT_MSG.timezone)
  .refine(isTimeZone, TENANT_MSG.timezone);

const brandField = z.string().trim().max(200, 'at most 200 characters');

/**
 * The Tenant form (docs/product.md "Validation"): each field 'Please input ...'. Shared with
 * billing's register-with-subscription-redirect, which takes the same fields flat.
 */
export const tenantFormFields = {
  name: requiredText(MSG.tenantName),
  contactName: requiredText(MSG.contactName),
  email: requiredText(MSG.tenantEmail, 320),
  phone: requiredText(MSG.tenantPhone, 50),
  address: requiredText(MSG.address, 500),
  goalScore: goalScoreField,
};

/** Settings every tenant may change about itself beyond the form. */
const tenantSettingsFields = {
  brand: brandField.optional(),
  heartbeatTimeout: heartbeatTimeoutField.optional(),
  timezone: timezoneField.optional(),
};

/** Commercial terms only the superAdmin sets (docs/decisions.md 36). */
const platformFields = {
  freeCount: z
    .number({ error: TENANT_MSG.freeCount })
    .int(TENANT_MSG.freeCount)
    .min(0, TENANT_MSG.freeCount)
    .max(100000, TENANT_MSG.freeCount)
    .optional(),
  freeTier: z.boolean({ error: TENANT_MSG.freeTier }).optional(),
  discount: z.number({ error: TENANT_MSG.discount }).min(0, TENANT_MSG.discount).max(100, TENANT_MSG.discount).optional(),
};
export const PLATFORM_TENANT_FIELDS = Object.keys(platformFields) as (keyof typeof platformFields)[];

export const createTenantBody = z.strictObject({ ...tenantFormFields, ...tenantSettingsFields, ...platformFields });
export type CreateTenantBody = z.infer<typeof createTenantBody>;

export const updateTenantBody = z.strictObject({
  name: tenantFormFields.name.optional(),
  contactName: tenantFormFields.contactName.optional(),
  email: tenantFormFields.email.optional(),
  phone: tenantFormFields.phone.optional(),
  address: tenantFormFields.address.optional(),
  goalScore: goalScoreField.optional(),
  ...tenantSettingsFields,
  ...platformFields,
});
export type UpdateTenantBody = z.infer<typeof updateTenantBody>;

export const tenantSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contactName: z.string(),
  brand: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  freeCount: z.number().int(),
  /** Free portals left: max(0, freeCount - the tenant's portals). */
  remainingCount: z.number().int(),
  freeTier: z.boolean(),
  discount: z.number(),
  goalScore: z.number(),
  heartbeatTimeout: z.number().int(),
  timezone: z.string(),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES),
  createdAt: isoDateTime,
});
export type Tenant = z.infer<typeof tenantSchema>;

/** A tenant created by a signed-in user with no tenant carries that user's new tokens. */
export const createdTenantSchema = tenantSchema.extend({
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
});

export const TENANT_SORT_FIELDS = ['name', 'contactName', 'email', 'phone', 'createdAt', 'id'] as const;
export const tenantListQuery = listQuery({ sort: TENANT_SORT_FIELDS, filter: { q: qFilter } });

export const tenantOption = z.object({ id: z.number().int(), name: z.string() });

export const tenantsEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/tenants',
    tag: 'tenants',
    summary: 'Tenants (superAdmin), paged, sorted and filtered by name',
    query: tenantListQuery,
    response: listOf(tenantSchema),
  }),
  all: endpoint({
    method: 'GET',
    path: '/v0/api/tenants/all',
    tag: 'tenants',
    summary: 'Id and name of every tenant, for selects (superAdmin)',
    response: dataOf(z.array(tenantOption)),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/tenants',
    tag: 'tenants',
    status: 201,
    summary:
      'Creates a tenant: any by the superAdmin, or their own by a signed-in user with no tenant (who becomes its Admin and gets new tokens)',
    body: createTenantBody,
    response: dataOf(createdTenantSchema),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/tenants/:id',
    tag: 'tenants',
    summary: 'One tenant (superAdmin: any; Admin: its own)',
    params: idParams,
    response: dataOf(tenantSchema),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v0/api/tenants/:id',
    tag: 'tenants',
    summary: 'Changes tenant info (superAdmin: any; Admin: its own, without commercial terms)',
    params: idParams,
    body: updateTenantBody,
    response: dataOf(tenantSchema),
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v0/api/tenants/:id',
    tag: 'tenants',
    summary: "Soft-deletes a tenant and ends its users' sessions (superAdmin)",
    params: idParams,
    response: okBody,
  }),
};

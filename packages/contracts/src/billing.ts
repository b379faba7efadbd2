import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, isoDateTime, listOf } from './envelope.ts';
import { listQuery } from './list-query.ts';
import { tenantFormFields, tenantSchema } from './tenants.ts';

const TAG = 'billing';

/** The tenant form's fields, flat (docs/decisions.md 36), with the product's messages. */
export const subscriptionSignupBody = z.strictObject(tenantFormFields);

export const checkoutSession = z.object({ sessionId: z.string(), url: z.string() });

export const verifyCheckoutBody = z.strictObject({
  sessionId: z.string({ error: 'sessionId is required' }).trim().min(1, 'sessionId is required').max(255),
  /** Sent by the web app from the return URL; the server uses the caller's own tenant instead. */
  tenantId: z.union([z.number().int(), z.string().max(20)]).optional(),
  /** The redirect flag: never trusted, the provider is asked. */
  success: z.union([z.boolean(), z.string().max(10)]).optional(),
});

export const PAYMENT_STATUSES = ['paid', 'unpaid', 'cancelled'] as const;
export const verifyCheckoutResponse = dataOf(
  z.object({
    paymentStatus: z.enum(PAYMENT_STATUSES),
    accessToken: z.string().optional(),
    refreshToken: z.string().optional(),
  }),
);

/**
 * The card path of PAYMENTS=stripe with a publishable key (Stripe Elements in the app's own
 * dialog): the subscription is created server-side and the browser confirms the intent it
 * answers. `setup` (trial: the card is collected for later, nothing is charged now) or
 * `payment` (no trial: the first invoice is paid now).
 */
export const CARD_INTENT_TYPES = ['setup', 'payment'] as const;
export const cardSubscriptionIntent = z.object({
  /** The billing record to confirm afterwards. */
  billingId: z.number().int(),
  intentType: z.enum(CARD_INTENT_TYPES),
  clientSecret: z.string(),
  publishableKey: z.string(),
});
export type CardSubscriptionIntent = z.infer<typeof cardSubscriptionIntent>;

export const confirmCardSubscriptionBody = z.strictObject({
  billingId: z.number({ error: 'billingId is required' }).int().min(1).max(2_147_483_647),
});

/** One checkout / subscription record (GET /billings). */
export const billingRecord = z.object({
  id: z.number().int(),
  provider: z.string(),
  sessionId: z.string(),
  subscriptionId: z.string().nullable(),
  /** pending | paid | unpaid | cancelled */
  status: z.string(),
  quantity: z.number().int(),
  /** Total per month in `currency` units (quantity x unit price), e.g. 49.99. */
  amount: z.number(),
  currency: z.string(),
  periodStart: isoDateTime.nullable(),
  periodEnd: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type BillingRecord = z.infer<typeof billingRecord>;

const billingListQuery = listQuery({
  sort: ['id', 'createdAt', 'status', 'quantity', 'amount', 'periodStart', 'periodEnd'],
  filter: { status: z.enum(['pending', 'paid', 'unpaid', 'cancelled']).optional(), provider: z.enum(['sandbox', 'stripe']).optional() },
});

export const billingEndpoints = {
  registerWithSubscription: endpoint({
    method: 'POST',
    path: '/v0/api/tenants/register-with-subscription-redirect',
    tag: TAG,
    summary: "Create (or update) the caller's tenant and open a hosted checkout",
    body: subscriptionSignupBody,
    response: dataOf(z.object({ tenant: tenantSchema, checkout: checkoutSession })),
  }),
  verifyCheckoutSession: endpoint({
    method: 'POST',
    path: '/v0/api/tenants/verify-checkout-session',
    tag: TAG,
    summary: 'Confirm a checkout with the provider; activates the subscription only when paid for this tenant',
    body: verifyCheckoutBody,
    response: verifyCheckoutResponse,
  }),
  registerWithCardSubscription: endpoint({
    method: 'POST',
    path: '/v0/api/tenants/register-with-subscription-intent',
    tag: TAG,
    summary: "Create (or update) the caller's tenant and a subscription whose card is taken in the app's dialog (Stripe Elements)",
    body: subscriptionSignupBody,
    response: dataOf(z.object({ tenant: tenantSchema, intent: cardSubscriptionIntent })),
  }),
  confirmCardSubscription: endpoint({
    method: 'POST',
    path: '/v0/api/tenants/confirm-subscription-intent',
    tag: TAG,
    summary: "Ask the provider whether the dialog's card was collected (or paid); activates the subscription only then",
    body: confirmCardSubscriptionBody,
    response: verifyCheckoutResponse,
  }),
  list: endpoint({
    method: 'GET',
    path: '/v0/api/billings',
    tag: TAG,
    summary: "The tenant's billing records",
    query: billingListQuery,
    response: listOf(billingRecord),
  }),
  stripeWebhook: endpoint({
    method: 'POST',
    path: '/v0/webhooks/stripe',
    tag: TAG,
    summary: 'Stripe events (signature verified on the raw body)',
    response: dataOf(z.object({ received: z.literal(true), duplicate: z.boolean() })),
  }),
};

import type { BillingRecord, Tenant } from '@vigil/contracts';
import { subscriptionSignupBody } from '@vigil/contracts';
import type { z } from 'zod';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, conflict, forbidden } from '../../http/errors.ts';
import type { Principal } from '../../http/permissions.ts';
import { announceTenantChanged, findTenant } from '../tenants/index.ts';
import * as repo from './billing.repository.ts';
import { fulfilVerified, isCardSubscriptionRow, type VerifyResult } from './fulfilment.ts';
import { checkoutQuantity, CURRENCY, returnUrl, TRIAL_DAYS, unitAmountCents } from './pricing.ts';
import type { PaymentProvider } from './providers/provider.ts';
import { createDefaultChannel } from '../notifications/index.ts';

/** What the routes serve as the repository answers it. */
export { listBillings } from './billing.repository.ts';

export type { VerifyResult } from './fulfilment.ts';

export const CHECKOUT_FAILED = 'Failed to create checkout session';
const ACTIVE = ['trialing', 'active'];

type SignupBody = z.output<typeof subscriptionSignupBody>;

/** Platform work: the caller may have no tenant scope yet (onboarding). Conditions are explicit. */
const platform = <T>(deps: AppDeps, fn: Parameters<typeof inScope<T>>[2]) => inScope(deps.database.db, allTenants, fn);

/**
 * The onboarding step both payment paths share: the caller's tenant is created (they become
 * its Admin) or, when they already have one without a running subscription, its info is
 * updated; then a pending billing row is opened (no provider call inside the transaction).
 */
export async function openBilling(deps: AppDeps, provider: PaymentProvider, principal: Principal, body: SignupBody) {
  const now = deps.clock.now();
  return platform(deps, async (tx) => {
    const user = await repo.lockUser(tx, principal.userId);
    if (!user || user.deactivatedAt) throw forbidden();
    let tenantId = user.tenantId;
    if (tenantId === null) {
      if (user.roles.length > 0) throw forbidden();
      tenantId = await repo.insertTenantWithAdmin(tx, body, user.id, now);
      await createDefaultChannel(deps, tx, tenantId);
    } else {
      if (!user.roles.includes('Admin')) throw forbidden();
      const state = await repo.tenantBillingState(tx, tenantId);
      if (!state || state.deletedAt) throw forbidden();
      if (ACTIVE.includes(state.subscriptionStatus)) throw conflict('The subscription is already active.');
      await repo.updateTenantInfo(tx, tenantId, body, now);
      await announceTenantChanged(deps.bus, tx, tenantId);
    }
    const terms = (await repo.tenantBillingState(tx, tenantId))!;
    if (terms.freeTier) throw conflict('This tenant is on the free tier: no subscription is needed.');
    const quantity = checkoutQuantity(terms, terms.portalCount);
    const unit = unitAmountCents(terms);
    const billing = await repo.insertBilling(tx, {
      tenantId,
      provider: provider.name,
      sessionId: '',
      status: 'pending',
      quantity,
      amountCents: quantity * unit,
      currency: CURRENCY,
      createdAt: now,
      updatedAt: now,
    });
    return { billing, quantity, unit, customerId: terms.customerId ?? undefined };
  });
}

/** The provider refused to open the payment: the pending row goes, and the product's text is answered. */
export async function abandonBilling(deps: AppDeps, provider: PaymentProvider, billing: repo.BillingRow, err: unknown): Promise<never> {
  deps.log.error({ err: (err as Error).message, tenantId: billing.tenantId, provider: provider.name }, 'checkout creation failed');
  await platform(deps, (tx) => repo.deleteBilling(tx, billing.tenantId, billing.id));
  throw new AppError('INTERNAL', CHECKOUT_FAILED);
}

/** The provider's id is recorded on the row; answers the tenant as it is now. */
export async function recordBillingSession(deps: AppDeps, billing: repo.BillingRow, sessionId: string): Promise<Tenant> {
  return platform(deps, async (tx) => {
    await repo.setBillingSession(tx, billing.tenantId, billing.id, sessionId, deps.clock.now());
    return (await findTenant(tx, billing.tenantId)) as Tenant;
  });
}

/**
 * register-with-subscription-redirect: the tenant and a pending billing row (openBilling),
 * then a hosted checkout. The provider is called outside any transaction; when it fails
 * the billing row is removed and the product's 'Failed to create checkout session' is answered.
 */
export async function startSubscription(deps: AppDeps, provider: PaymentProvider, principal: Principal, body: SignupBody) {
  const { billing, quantity, unit } = await openBilling(deps, provider, principal, body);
  const ids = { tenantId: billing.tenantId, billingId: billing.id };
  let checkout: { sessionId: string; url: string };
  try {
    checkout = await provider.createCheckout({
      ...ids,
      quantity,
      unitAmountCents: unit,
      trialDays: TRIAL_DAYS,
      successUrl: returnUrl(deps.config.publicUrl, true, { ...ids, sessionId: '{CHECKOUT_SESSION_ID}' }),
      cancelUrl: returnUrl(deps.config.publicUrl, false, { ...ids, sessionId: '{CHECKOUT_SESSION_ID}' }),
      customerEmail: body.email,
    });
  } catch (err) {
    return abandonBilling(deps, provider, billing, err);
  }
  const tenant = await recordBillingSession(deps, billing, checkout.sessionId);
  deps.log.info({ tenantId: billing.tenantId, userId: principal.userId, billingId: billing.id }, 'checkout opened');
  return { tenant, checkout };
}

/**
 * verify-checkout-session: the redirect's flag and tenant id are ignored. The session must be
 * a billing row of the caller's own tenant (as stored now, the token may predate it) AND the
 * provider must say it is paid for that tenant (fulfilVerified); only then the subscription
 * is activated and tokens carrying the tenant are issued. Repeating it is harmless.
 */
export async function verifyCheckout(
  deps: AppDeps,
  provider: PaymentProvider,
  principal: Principal,
  sessionId: string,
): Promise<VerifyResult> {
  const found = await platform(deps, async (tx) => {
    const tenantId = await repo.currentTenantOfUser(tx, principal.userId);
    return tenantId === null ? undefined : repo.findBillingBySession(tx, provider.name, sessionId, tenantId);
  });
  // A card subscription's row is confirmed through its own call, never as a checkout session.
  if (!found || isCardSubscriptionRow(found)) return { paymentStatus: 'unpaid' };
  return fulfilVerified(deps, principal, found, await provider.getCheckout(sessionId));
}

export function toBillingRecord(row: repo.BillingRow): BillingRecord {
  return {
    id: row.id,
    provider: row.provider,
    sessionId: row.sessionId,
    subscriptionId: row.subscriptionId,
    status: row.status,
    quantity: row.quantity,
    amount: row.amountCents / 100,
    currency: row.currency,
    periodStart: row.periodStart?.toISOString() ?? null,
    periodEnd: row.periodEnd?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

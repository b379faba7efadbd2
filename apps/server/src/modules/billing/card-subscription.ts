import type { CardSubscriptionIntent, Tenant } from '@vigil/contracts';
import { subscriptionSignupBody } from '@vigil/contracts';
import type { z } from 'zod';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/permissions.ts';
import * as repo from './billing.repository.ts';
import { abandonBilling, openBilling, recordBillingSession } from './billing.service.ts';
import { fulfilVerified, isCardSubscriptionRow, type VerifyResult } from './fulfilment.ts';
import { TRIAL_DAYS } from './pricing.ts';
import type { CardSubscriptions, PaymentProvider } from './providers/provider.ts';

type SignupBody = z.output<typeof subscriptionSignupBody>;

const platform = <T>(deps: AppDeps, fn: Parameters<typeof inScope<T>>[2]) => inScope(deps.database.db, allTenants, fn);

/** The card path exists only with PAYMENTS=stripe and STRIPE_PUBLISHABLE_KEY; otherwise its routes are not found. */
function cardsOf(deps: AppDeps, provider: PaymentProvider): { cards: CardSubscriptions; publishableKey: string } {
  const publishableKey = deps.config.stripe.publishableKey;
  if (!provider.cards || !publishableKey) throw notFound();
  return { cards: provider.cards, publishableKey };
}

/**
 * register-with-subscription-intent: the same onboarding step as the hosted checkout
 * (openBilling), then the provider's customer and subscription with the 30-day trial,
 * created incomplete: the answer carries the client secret of the intent the browser
 * confirms with Stripe.js (the trial's SetupIntent, or the first invoice's PaymentIntent).
 * The row's session id is the subscription id. Provider failure: the row goes and the
 * product's 'Failed to create checkout session' is answered.
 */
export async function startCardSubscription(
  deps: AppDeps,
  provider: PaymentProvider,
  principal: Principal,
  body: SignupBody,
): Promise<{ tenant: Tenant; intent: CardSubscriptionIntent }> {
  const { cards, publishableKey } = cardsOf(deps, provider);
  await settleEarlierAttempts(deps, cards, principal);
  const { billing, quantity, unit, customerId } = await openBilling(deps, provider, principal, body);
  let created;
  try {
    created = await cards.create({
      tenantId: billing.tenantId,
      billingId: billing.id,
      quantity,
      unitAmountCents: unit,
      trialDays: TRIAL_DAYS,
      customerEmail: body.email,
      customerName: body.name,
      customerId,
    });
  } catch (err) {
    return abandonBilling(deps, provider, billing, err);
  }
  const tenant = await recordBillingSession(deps, billing, created.subscriptionId);
  deps.log.info(
    { tenantId: billing.tenantId, userId: principal.userId, billingId: billing.id, intentType: created.intentType },
    'card subscription opened',
  );
  return { tenant, intent: { billingId: billing.id, intentType: created.intentType, clientSecret: created.clientSecret, publishableKey } };
}

/**
 * Before a new attempt, the tenant's earlier ones (a dialog closed, a second tab) are settled so
 * that two subscriptions never both keep a card: one Stripe reports paid is fulfilled (the new
 * attempt then meets 'already active'); the others are cancelled at Stripe and marked cancelled.
 * A cancellation Stripe refuses is only logged: a trial without a card cancels itself at its end.
 */
async function settleEarlierAttempts(deps: AppDeps, cards: CardSubscriptions, principal: Principal): Promise<void> {
  const earlier = await platform(deps, async (tx) => {
    const tenantId = await repo.currentTenantOfUser(tx, principal.userId);
    return tenantId === null ? [] : repo.pendingCardBillings(tx, tenantId);
  });
  for (const row of earlier) {
    // Stripe unreachable: the attempt is left as it is rather than cancelled unseen.
    const state = await cards.state(row.sessionId).catch(() => null);
    if (!state) continue;
    if (state.status === 'paid' && state.tenantReference === String(row.tenantId)) {
      await fulfilVerified(deps, principal, row, state);
      continue;
    }
    try {
      await cards.cancel(row.sessionId);
      await platform(deps, (tx) => repo.markBillingCancelled(tx, row, deps.clock.now()));
    } catch (err) {
      deps.log.warn({ err: (err as Error).message, tenantId: row.tenantId, billingId: row.id }, 'earlier card attempt not cancelled');
    }
  }
}

/**
 * confirm-subscription-intent: the billing row must be a card subscription of the caller's
 * own tenant (as stored now; anything else is not found), and the provider is asked about
 * the subscription (the browser's word that Stripe.js succeeded is not taken). The verdict
 * is acted on exactly as for a hosted checkout (fulfilVerified).
 */
export async function confirmCardSubscription(
  deps: AppDeps,
  provider: PaymentProvider,
  principal: Principal,
  billingId: number,
): Promise<VerifyResult> {
  const { cards } = cardsOf(deps, provider);
  const found = await platform(deps, async (tx) => {
    const tenantId = await repo.currentTenantOfUser(tx, principal.userId);
    return tenantId === null ? undefined : repo.findBilling(tx, tenantId, billingId);
  });
  if (!found || !isCardSubscriptionRow(found)) throw notFound();
  return fulfilVerified(deps, principal, found, await cards.state(found.sessionId));
}

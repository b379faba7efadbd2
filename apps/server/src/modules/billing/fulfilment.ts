import { TOPICS, type PortalsChangedEvent } from '../../events/topics.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import type { Principal } from '../../http/permissions.ts';
import { issueTokens, type TokenPair } from '../auth/index.ts';
import * as repo from './billing.repository.ts';
import { billablePortals, TRIAL_DAYS, unitAmountCents } from './pricing.ts';
import type { CheckoutState, PaymentEvent, PaymentProvider } from './providers/provider.ts';

const platform = <T>(deps: AppDeps, fn: Parameters<typeof inScope<T>>[2]) => inScope(deps.database.db, allTenants, fn);
const MIRRORED = new Set(['trialing', 'active', 'past_due', 'canceled']);

export type VerifyResult = { paymentStatus: 'paid' | 'unpaid' | 'cancelled' } & Partial<TokenPair>;

/** A row of the card path (Stripe Elements): its session id is the provider's subscription id. */
export const isCardSubscriptionRow = (row: repo.BillingRow) => row.provider === 'stripe' && row.sessionId.startsWith('sub_');

/**
 * Acts on the provider's own answer about a billing row of the caller's tenant (hosted
 * checkout or card dialog alike): paid FOR THAT TENANT activates the subscription (once,
 * activateSubscription) and issues tokens carrying the tenant; an ended attempt marks the
 * row cancelled; anything else is unpaid and changes nothing.
 */
export async function fulfilVerified(
  deps: AppDeps,
  principal: Principal,
  found: repo.BillingRow,
  state: CheckoutState,
): Promise<VerifyResult> {
  const now = deps.clock.now();
  if (state.status === 'paid' && state.tenantReference === String(found.tenantId)) {
    const tokens = await platform(deps, async (tx) => {
      await repo.activateSubscription(tx, found, state, now, TRIAL_DAYS);
      return issueTokens(deps, principal.userId, tx);
    });
    deps.log.info({ tenantId: found.tenantId, userId: principal.userId, billingId: found.id }, 'subscription activated');
    return { paymentStatus: 'paid', ...tokens };
  }
  if (state.status === 'cancelled') {
    await platform(deps, (tx) => repo.markBillingCancelled(tx, found, now));
    return { paymentStatus: 'cancelled' };
  }
  return { paymentStatus: 'unpaid' };
}

/**
 * Applies a verified provider event once (docs/decisions.md 39, rule 8): its id is recorded in
 * `payment_events` in the same transaction as its effects, so a replay changes nothing.
 * Answers whether it was a duplicate.
 */
export async function applyPaymentEvent(deps: AppDeps, provider: PaymentProvider, event: PaymentEvent): Promise<{ duplicate: boolean }> {
  const now = deps.clock.now();
  return platform(deps, async (tx) => {
    if (!(await repo.recordPaymentEvent(tx, event.id, event.type, now))) return { duplicate: true };
    const c = event.checkout;
    if (c?.completed && c.tenantReference && /^\d+$/.test(c.tenantReference)) {
      const row = await repo.findBillingBySession(tx, provider.name, c.sessionId, Number(c.tenantReference));
      if (row) await repo.activateSubscription(tx, row, c, now, TRIAL_DAYS);
      else deps.log.warn({ eventId: event.id }, 'checkout completed for an unknown session or tenant');
    }
    const s = event.subscription;
    // A card-path subscription whose card was collected: fulfilled like its confirmation (once).
    const ref = s?.state?.status === 'paid' ? s.state.tenantReference : null;
    if (s && ref && /^\d+$/.test(ref)) {
      const row = await repo.findBillingBySession(tx, provider.name, s.id, Number(ref));
      if (row && isCardSubscriptionRow(row)) await repo.activateSubscription(tx, row, s.state!, now, TRIAL_DAYS);
    }
    if (s) {
      const status = MIRRORED.has(s.status)
        ? s.status
        : s.status === 'unpaid' || s.status === 'incomplete'
          ? 'past_due'
          : s.status === 'incomplete_expired'
            ? 'canceled'
            : null;
      if (status) await repo.setSubscriptionStatusBySubscription(tx, s.id, status, now);
    }
    return { duplicate: false };
  });
}

/**
 * Keeps the provider subscription's quantity equal to the billable portals. Several
 * processes receive the same `portals.changed` event: the billing row is locked and only
 * the one that changes its quantity calls the provider (setting, not adding, so even a
 * repeat is harmless). If the provider fails, the row goes back so a later change retries.
 */
export async function syncQuantity(deps: AppDeps, provider: PaymentProvider, tenantId: number): Promise<void> {
  const now = deps.clock.now();
  const claim = await platform(deps, async (tx) => {
    const state = await repo.tenantBillingState(tx, tenantId);
    if (!state?.subscriptionId || !['trialing', 'active', 'past_due'].includes(state.subscriptionStatus)) return null;
    const row = await repo.lockSubscriptionBilling(tx, tenantId, state.subscriptionId);
    if (!row) return null;
    const quantity = billablePortals(state, state.portalCount);
    if (row.quantity === quantity) return null;
    await repo.setBillingQuantity(tx, row, quantity, unitAmountCents(state), now);
    return { row, quantity, subscriptionId: state.subscriptionId, unit: unitAmountCents(state) };
  });
  if (!claim) return;
  try {
    await provider.updateQuantity(claim.subscriptionId, claim.quantity);
    deps.log.info({ tenantId, quantity: claim.quantity }, 'subscription quantity updated');
  } catch (err) {
    deps.log.error({ err: (err as Error).message, tenantId }, 'subscription quantity update failed');
    await platform(deps, (tx) => repo.setBillingQuantity(tx, claim.row, claim.row.quantity, claim.unit, deps.clock.now()));
  }
}

/** Subscribes the quantity sync to portal changes; answers the unsubscribe function. */
export function followPortalChanges(deps: AppDeps, provider: PaymentProvider, onDone?: (p: Promise<void>) => void): () => void {
  return deps.bus.subscribe(TOPICS.portalsChanged, (event) => {
    const { tenantId } = event as PortalsChangedEvent;
    if (typeof tenantId !== 'number') return;
    const done = syncQuantity(deps, provider, tenantId).catch((err) =>
      deps.log.error({ err: (err as Error).message, tenantId }, 'quantity sync failed'),
    );
    onDone?.(done);
  });
}

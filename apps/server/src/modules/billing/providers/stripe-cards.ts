import Stripe from 'stripe';
import {
  ProviderFailure,
  type CardSubscription,
  type CardSubscriptionRequest,
  type CardSubscriptions,
  type CheckoutState,
} from './provider.ts';

/** One product for every tenant's subscription (a fixed id, so it is created once per Stripe account). */
export const PORTAL_PRODUCT = { id: 'vigil_portal', name: 'Vigil portal' };

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);
const isMissing = (err: unknown) => err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404;

/**
 * The subscription as the product reads it (never the browser's word): paid once a trial
 * has its card (the SetupIntent succeeded, which saves the card as the subscription's
 * default) or the first invoice is paid (`active`). A declined card leaves the trial
 * without a card, or the subscription `incomplete`: unpaid. Ended attempts are cancelled.
 */
export function cardSubscriptionStateOf(sub: Stripe.Subscription): CheckoutState {
  const setup = typeof sub.pending_setup_intent === 'object' ? sub.pending_setup_intent : null;
  const cardCollected = Boolean(sub.default_payment_method) || setup?.status === 'succeeded';
  const paid = sub.status === 'active' || (sub.status === 'trialing' && cardCollected);
  return {
    status: paid ? 'paid' : sub.status === 'canceled' || sub.status === 'incomplete_expired' ? 'cancelled' : 'unpaid',
    tenantReference: sub.metadata?.tenantId ?? null,
    subscriptionId: sub.id,
    customerId: idOf(sub.customer),
  };
}

/** The client secret the browser confirms: the trial's SetupIntent, else the first invoice's PaymentIntent. */
function intentOf(sub: Stripe.Subscription): Pick<CardSubscription, 'intentType' | 'clientSecret'> {
  const setup = typeof sub.pending_setup_intent === 'object' ? sub.pending_setup_intent : null;
  if (setup?.client_secret) return { intentType: 'setup', clientSecret: setup.client_secret };
  const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
  const secret = invoice?.confirmation_secret?.client_secret;
  if (secret) return { intentType: 'payment', clientSecret: secret };
  throw new ProviderFailure(`subscription ${sub.id} has neither a pending SetupIntent nor an invoice to pay`);
}

/** Stripe subscriptions created server-side, whose card Stripe Elements collects (docs/decisions.md 34). */
export function createStripeCards(stripe: Stripe): CardSubscriptions {
  let product: Promise<string> | undefined;
  const ensureProduct = () =>
    (product ??= (async () => {
      try {
        return (await stripe.products.retrieve(PORTAL_PRODUCT.id)).id;
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      try {
        return (await stripe.products.create(PORTAL_PRODUCT)).id;
      } catch (err) {
        // Another process created it in between.
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_already_exists') return PORTAL_PRODUCT.id;
        throw err;
      }
    })().catch((err) => {
      product = undefined;
      throw err;
    }));

  return {
    async create(req: CardSubscriptionRequest): Promise<CardSubscription> {
      const metadata = { tenantId: String(req.tenantId), billingId: String(req.billingId) };
      try {
        const productId = await ensureProduct();
        const customerId =
          req.customerId ??
          (
            await stripe.customers.create(
              { email: req.customerEmail, name: req.customerName, metadata: { tenantId: metadata.tenantId } },
              { idempotencyKey: `vigil-customer-${req.tenantId}-${req.billingId}` },
            )
          ).id;
        const sub = await stripe.subscriptions.create(
          {
            customer: customerId,
            items: [
              {
                price_data: { currency: 'usd', product: productId, unit_amount: req.unitAmountCents, recurring: { interval: 'month' } },
                quantity: req.quantity,
              },
            ],
            ...(req.trialDays > 0
              ? { trial_period_days: req.trialDays, trial_settings: { end_behavior: { missing_payment_method: 'cancel' as const } } }
              : {}),
            // Nothing is charged or activated until the browser confirms the intent answered here.
            payment_behavior: 'default_incomplete',
            payment_settings: { save_default_payment_method: 'on_subscription', payment_method_types: ['card'] },
            metadata,
            expand: ['pending_setup_intent', 'latest_invoice.confirmation_secret'],
          },
          { idempotencyKey: `vigil-subscription-${req.tenantId}-${req.billingId}` },
        );
        return { subscriptionId: sub.id, customerId, ...intentOf(sub) };
      } catch (err) {
        throw err instanceof ProviderFailure ? err : new ProviderFailure((err as Error).message);
      }
    },

    async state(subscriptionId: string): Promise<CheckoutState> {
      try {
        return cardSubscriptionStateOf(await stripe.subscriptions.retrieve(subscriptionId, { expand: ['pending_setup_intent'] }));
      } catch (err) {
        if (isMissing(err)) return { status: 'unpaid', tenantReference: null };
        throw new ProviderFailure((err as Error).message);
      }
    },

    async cancel(subscriptionId: string): Promise<void> {
      try {
        await stripe.subscriptions.cancel(subscriptionId);
      } catch (err) {
        if (isMissing(err)) return;
        throw new ProviderFailure((err as Error).message);
      }
    },
  };
}

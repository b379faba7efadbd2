import Stripe from 'stripe';
import { cardSubscriptionStateOf, createStripeCards } from './stripe-cards.ts';
import {
  InvalidSignature,
  ProviderFailure,
  type CheckoutRequest,
  type CheckoutState,
  type PaymentEvent,
  type PaymentProvider,
} from './provider.ts';

export interface StripeOptions {
  secretKey: string;
  webhookSecret?: string;
  /** STRIPE_API_BASE: another host for the SDK (tests point it at a local fake). */
  apiBase?: string;
  /** STRIPE_PUBLISHABLE_KEY: with it, cards are also taken in the app's own dialog (Stripe Elements). */
  publishableKey?: string;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

function sdkOptions(apiBase?: string): ConstructorParameters<typeof Stripe>[1] {
  // Provider calls get a timeout (docs/decisions.md 39, rule 9); one retry with Stripe's idempotency keys.
  const base = { timeout: 20_000, maxNetworkRetries: 1, telemetry: false };
  if (!apiBase) return base;
  const url = new URL(apiBase);
  return {
    ...base,
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'http:' ? 'http' : 'https',
  };
}

/** The session as the product reads it: paid once complete (a trial completes with no payment due). */
export function checkoutStateOf(session: Stripe.Checkout.Session): CheckoutState {
  const completed =
    session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required');
  return {
    status: completed ? 'paid' : session.status === 'expired' ? 'cancelled' : 'unpaid',
    tenantReference: session.client_reference_id ?? null,
    subscriptionId: idOf(session.subscription),
    customerId: idOf(session.customer),
  };
}

/** The official SDK (docs/decisions.md 34): subscription checkout with a 30-day trial, lookups, webhooks. */
export function createStripeProvider(opts: StripeOptions): PaymentProvider {
  const stripe = new Stripe(opts.secretKey, sdkOptions(opts.apiBase));
  return {
    name: 'stripe',
    cards: opts.publishableKey ? createStripeCards(stripe) : undefined,
    async createCheckout(req: CheckoutRequest) {
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            line_items: [
              {
                price_data: {
                  currency: 'usd',
                  unit_amount: req.unitAmountCents,
                  recurring: { interval: 'month' },
                  product_data: { name: 'Vigil portal' },
                },
                quantity: req.quantity,
              },
            ],
            subscription_data: {
              trial_period_days: req.trialDays,
              metadata: { tenantId: String(req.tenantId), billingId: String(req.billingId) },
            },
            client_reference_id: String(req.tenantId),
            metadata: { tenantId: String(req.tenantId), billingId: String(req.billingId) },
            ...(req.customerEmail ? { customer_email: req.customerEmail } : {}),
            success_url: req.successUrl,
            cancel_url: req.cancelUrl,
          },
          { idempotencyKey: `vigil-checkout-${req.tenantId}-${req.billingId}` },
        );
        if (!session.url) throw new ProviderFailure('the checkout session has no url');
        return { sessionId: session.id, url: session.url };
      } catch (err) {
        throw err instanceof ProviderFailure ? err : new ProviderFailure((err as Error).message);
      }
    },
    async getCheckout(sessionId: string) {
      try {
        return checkoutStateOf(await stripe.checkout.sessions.retrieve(sessionId));
      } catch (err) {
        // An unknown session is not paid; anything else is the provider failing.
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404)
          return { status: 'unpaid', tenantReference: null };
        throw new ProviderFailure((err as Error).message);
      }
    },
    async updateQuantity(subscriptionId: string, quantity: number) {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      const item = subscription.items.data[0];
      if (!item) throw new ProviderFailure(`subscription ${subscriptionId} has no item`);
      if (item.quantity === quantity) return;
      await stripe.subscriptions.update(subscriptionId, { items: [{ id: item.id, quantity }], proration_behavior: 'create_prorations' });
    },
    parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent {
      if (!opts.webhookSecret || !signatureHeader) throw new InvalidSignature('missing signature or secret');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, opts.webhookSecret);
      } catch {
        throw new InvalidSignature('bad signature');
      }
      const out: PaymentEvent = { id: event.id, type: event.type };
      if (event.type === 'checkout.session.completed') {
        const s = event.data.object;
        const state = checkoutStateOf(s);
        out.checkout = {
          sessionId: s.id,
          tenantReference: state.tenantReference,
          completed: state.status === 'paid',
          subscriptionId: state.subscriptionId,
          customerId: state.customerId,
        };
      } else if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
        const sub = event.data.object;
        out.subscription = {
          id: sub.id,
          status: event.type === 'customer.subscription.deleted' ? 'canceled' : sub.status,
          state: cardSubscriptionStateOf(sub),
        };
      }
      return out;
    },
  };
}

/**
 * The payment provider seam (docs/decisions.md 34). The product only ever asks a provider
 * to open a hosted checkout, to tell the state of one (server-side lookup: the browser's
 * redirect flag is never trusted), to set a subscription's quantity, and to verify and
 * parse its webhooks. Two implementations: `sandbox` (local, default) and `stripe`.
 */

export interface CheckoutRequest {
  tenantId: number;
  billingId: number;
  quantity: number;
  unitAmountCents: number;
  trialDays: number;
  /** May hold `{CHECKOUT_SESSION_ID}`, replaced by the provider with the session id. */
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
}

export type CheckoutStatus = 'paid' | 'unpaid' | 'cancelled';

export interface CheckoutState {
  /** paid: checkout completed (for a trial: card collected, trial started). */
  status: CheckoutStatus;
  /** The tenant the session was opened for (`client_reference_id`), as the provider stores it. */
  tenantReference: string | null;
  subscriptionId?: string;
  customerId?: string;
}

/** A provider webhook event, reduced to what fulfilment needs. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** checkout.session.completed */
  checkout?: { sessionId: string; tenantReference: string | null; completed: boolean; subscriptionId?: string; customerId?: string };
  /**
   * customer.subscription.updated / deleted. `state`: the subscription read as the card path's
   * confirmation reads it, so a card collected in the dialog activates even if the browser
   * never came back to confirm.
   */
  subscription?: { id: string; status: string; state?: CheckoutState };
}

/** A subscription whose card the app's own dialog collects (Stripe Elements). */
export interface CardSubscriptionRequest {
  tenantId: number;
  billingId: number;
  quantity: number;
  unitAmountCents: number;
  /** > 0: the card is collected for after the trial (SetupIntent); 0: the first month is paid now (PaymentIntent). */
  trialDays: number;
  customerEmail: string;
  customerName: string;
  /** The tenant's customer from an earlier attempt, reused rather than duplicated. */
  customerId?: string;
}

export interface CardSubscription {
  subscriptionId: string;
  customerId: string;
  intentType: 'setup' | 'payment';
  /** Handed to Stripe.js only; never stored. */
  clientSecret: string;
}

export interface CardSubscriptions {
  create(req: CardSubscriptionRequest): Promise<CardSubscription>;
  /**
   * The subscription's state as the provider tells it: `paid` once its card is collected
   * (trial) or its first invoice paid; `tenantReference` is the tenant it was created for.
   * An unknown subscription is `unpaid` with no tenant reference.
   */
  state(subscriptionId: string): Promise<CheckoutState>;
  /** Cancels an abandoned attempt now; an unknown or already ended subscription is fine. */
  cancel(subscriptionId: string): Promise<void>;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  /** Only Stripe with a publishable key takes cards in the app (the sandbox has its hosted page only). */
  readonly cards?: CardSubscriptions;
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /** The session's state; an unknown session is `unpaid` with no tenant reference. */
  getCheckout(sessionId: string): Promise<CheckoutState>;
  /** Sets (not adds to) the subscription's quantity, so repeating it is harmless. */
  updateQuantity(subscriptionId: string, quantity: number): Promise<void>;
  /** Verifies the signature over the raw bytes; throws `InvalidSignature` when it does not hold. */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
}

export class InvalidSignature extends Error {}
export class ProviderFailure extends Error {}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Stripe's form encoding, flattened: `line_items[0][quantity]` -> '2'. */
  form: Record<string, string>;
}

export interface FakeIntent {
  id: string;
  object: 'setup_intent' | 'payment_intent';
  status: string;
  client_secret: string;
}

/** A subscription as the fake keeps it; answered in Stripe's shape by `subscriptionJson`. */
export interface FakeSubscription {
  id: string;
  quantity: number;
  status: string;
  customer?: string;
  metadata?: Record<string, string>;
  default_payment_method?: string | null;
  /** The trial's SetupIntent id while the card is not collected. */
  pending_setup_intent?: string | null;
  /** The first invoice's PaymentIntent (no trial). */
  invoice_intent?: FakeIntent;
}

/**
 * A local fake of the parts of Stripe's HTTP API the product uses, answering JSON like
 * Stripe, so the real SDK is exercised end to end (docs/architecture.md "Tests"). Tests flip session state.
 */
export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, Record<string, unknown>>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  readonly setupIntents = new Map<string, FakeIntent>();
  readonly products = new Set<string>();
  readonly customers = new Map<string, { id: string; email?: string; name?: string }>();
  failCheckout = false;
  failSubscriptionCreate = false;
  failSubscriptionUpdate = false;
  private server?: Server;
  private seq = 0;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const [path = '', search = ''] = (req.url ?? '').split('?');
        // GET parameters (expand[]) come in the query string, POST ones in the form body.
        const form = Object.fromEntries([...new URLSearchParams(search), ...new URLSearchParams(body)]);
        this.requests.push({ method: req.method ?? '', path, form });
        const [status, json] = this.answer(req.method ?? '', path, form);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.seq}` });
        res.end(JSON.stringify(json));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The provider side of a completed trial checkout. */
  complete(sessionId: string, subscriptionId = `sub_${sessionId}`): void {
    const s = this.sessions.get(sessionId)!;
    Object.assign(s, { status: 'complete', payment_status: 'no_payment_required', subscription: subscriptionId, customer: 'cus_fake' });
    this.subscriptions.set(subscriptionId, { id: subscriptionId, quantity: Number(s.quantity ?? 1), status: 'trialing' });
  }

  /** Stripe.js confirmed the trial's SetupIntent with a good card: it succeeds and the card becomes the default. */
  collectCard(subscriptionId: string): void {
    const sub = this.subscriptions.get(subscriptionId)!;
    this.setupIntents.get(sub.pending_setup_intent!)!.status = 'succeeded';
    Object.assign(sub, { default_payment_method: 'pm_card_visa', pending_setup_intent: null });
  }

  /** Stripe.js confirmed with a declined card: the intent wants another payment method; nothing else changes. */
  declineCard(subscriptionId: string): void {
    const sub = this.subscriptions.get(subscriptionId)!;
    if (sub.pending_setup_intent) this.setupIntents.get(sub.pending_setup_intent)!.status = 'requires_payment_method';
    if (sub.invoice_intent) sub.invoice_intent.status = 'requires_payment_method';
  }

  /** The first invoice paid (no trial): the subscription turns active. */
  payInvoice(subscriptionId: string): void {
    const sub = this.subscriptions.get(subscriptionId)!;
    sub.invoice_intent!.status = 'succeeded';
    Object.assign(sub, { status: 'active', default_payment_method: 'pm_card_visa' });
  }

  private subscriptionJson(sub: FakeSubscription, expand: string[]): Record<string, unknown> {
    const setup = sub.pending_setup_intent ? this.setupIntents.get(sub.pending_setup_intent)! : null;
    return {
      id: sub.id,
      object: 'subscription',
      status: sub.status,
      customer: sub.customer ?? 'cus_fake',
      metadata: sub.metadata ?? {},
      default_payment_method: sub.default_payment_method ?? null,
      pending_setup_intent: setup && expand.includes('pending_setup_intent') ? setup : (setup?.id ?? null),
      latest_invoice: sub.invoice_intent
        ? {
            id: `in_${sub.id}`,
            object: 'invoice',
            confirmation_secret: expand.includes('latest_invoice.confirmation_secret')
              ? { type: 'payment_intent', client_secret: sub.invoice_intent.client_secret }
              : null,
          }
        : null,
      items: { object: 'list', data: [{ id: `si_${sub.id}`, object: 'subscription_item', quantity: sub.quantity }] },
    };
  }

  /** POST /v1/subscriptions with payment_behavior=default_incomplete, as Stripe answers it. */
  private createSubscription(form: Record<string, string>): [number, unknown] {
    if (this.failSubscriptionCreate) return [500, { error: { type: 'api_error', message: 'boom' } }];
    const product = form['items[0][price_data][product]'];
    if (!product || !this.products.has(product))
      return [400, { error: { type: 'invalid_request_error', message: `No such product: '${product}'` } }];
    if (!form.customer || !this.customers.has(form.customer))
      return [400, { error: { type: 'invalid_request_error', message: `No such customer: '${form.customer}'` } }];
    const id = `sub_${++this.seq}`;
    const trial = Number(form.trial_period_days ?? 0) > 0;
    const metadata = Object.fromEntries(Object.entries(form).flatMap(([k, v]) => (k.startsWith('metadata[') ? [[k.slice(9, -1), v]] : [])));
    const sub: FakeSubscription = {
      id,
      quantity: Number(form['items[0][quantity]'] ?? 1),
      status: trial ? 'trialing' : 'incomplete',
      customer: form.customer,
      metadata,
      default_payment_method: null,
    };
    if (trial) {
      const intent: FakeIntent = {
        id: `seti_${id}`,
        object: 'setup_intent',
        status: 'requires_payment_method',
        client_secret: `seti_${id}_secret_fake`,
      };
      this.setupIntents.set(intent.id, intent);
      sub.pending_setup_intent = intent.id;
    } else {
      sub.invoice_intent = {
        id: `pi_${id}`,
        object: 'payment_intent',
        status: 'requires_payment_method',
        client_secret: `pi_${id}_secret_fake`,
      };
    }
    this.subscriptions.set(id, sub);
    return [200, this.subscriptionJson(sub, expandOf(form))];
  }

  private notFound(): [number, unknown] {
    return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such object' } }];
  }

  private answer(method: string, path: string, form: Record<string, string>): [number, unknown] {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (this.failCheckout) return [500, { error: { type: 'api_error', message: 'boom' } }];
      const id = `cs_test_${++this.seq}`;
      const session = {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        mode: form.mode,
        client_reference_id: form.client_reference_id ?? null,
        subscription: null,
        customer: null,
        quantity: form['line_items[0][quantity]'],
      };
      this.sessions.set(id, session);
      return [200, session];
    }
    const session = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
    if (method === 'GET' && session) return this.sessions.has(session[1]) ? [200, this.sessions.get(session[1])] : this.notFound();
    const product = path.match(/^\/v1\/products\/([^/]+)$/);
    if (method === 'GET' && product) return this.products.has(product[1]) ? [200, { id: product[1], object: 'product' }] : this.notFound();
    if (method === 'POST' && path === '/v1/products') {
      if (this.products.has(form.id))
        return [400, { error: { type: 'invalid_request_error', code: 'resource_already_exists', message: 'Product already exists.' } }];
      this.products.add(form.id ?? `prod_${++this.seq}`);
      return [200, { id: form.id, object: 'product', name: form.name }];
    }
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: `cus_${++this.seq}`, email: form.email, name: form.name };
      this.customers.set(customer.id, customer);
      return [200, { ...customer, object: 'customer' }];
    }
    if (method === 'POST' && path === '/v1/subscriptions') return this.createSubscription(form);
    const sub = path.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (sub) {
      const found = this.subscriptions.get(sub[1]);
      if (!found) return this.notFound();
      if (method === 'POST' && this.failSubscriptionUpdate) return [500, { error: { type: 'api_error', message: 'boom' } }];
      if (method === 'POST' && form['items[0][quantity]'] !== undefined) found.quantity = Number(form['items[0][quantity]']);
      if (method === 'DELETE') found.status = 'canceled';
      return [200, this.subscriptionJson(found, expandOf(form))];
    }
    return this.notFound();
  }
}

/** The `expand[n]` parameters of a request. */
const expandOf = (form: Record<string, string>) => Object.entries(form).flatMap(([k, v]) => (k.startsWith('expand[') ? [v] : []));

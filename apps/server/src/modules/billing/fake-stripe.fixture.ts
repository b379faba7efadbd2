import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Stripe's form encoding, flattened: `line_items[0][quantity]` -> '2'. */
  form: Record<string, string>;
}

/**
 * A local fake of the parts of Stripe's HTTP API the product uses, answering JSON like
 * Stripe, so the real SDK is exercised end to end (testing guide). Tests flip session state.
 */
export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, Record<string, unknown>>();
  readonly subscriptions = new Map<string, { id: string; quantity: number; status: string }>();
  failCheckout = false;
  failSubscriptionUpdate = false;
  private server?: Server;
  private seq = 0;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0]!;
        const form = Object.fromEntries(new URLSearchParams(body));
        this.requests.push({ method: req.method ?? '', path, form });
        const [status, json] = this.answer(req.method ?? '', path, form);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.seq}` });
        res.end(JSON.stringify(json));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
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
    if (method === 'GET' && session) return this.sessions.has(session[1]!) ? [200, this.sessions.get(session[1]!)] : this.notFound();
    const sub = path.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (sub) {
      const found = this.subscriptions.get(sub[1]!);
      if (!found) return this.notFound();
      if (method === 'POST' && this.failSubscriptionUpdate) return [500, { error: { type: 'api_error', message: 'boom' } }];
      if (method === 'POST' && form['items[0][quantity]'] !== undefined) found.quantity = Number(form['items[0][quantity]']);
      return [200, { id: found.id, object: 'subscription', status: found.status, items: { object: 'list', data: [{ id: `si_${found.id}`, object: 'subscription_item', quantity: found.quantity }] } }];
    }
    return this.notFound();
  }
}

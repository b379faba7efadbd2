import { billingEndpoints as E, clientConfigEndpoints, type ErrorBody } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billings, paymentEvents, tenants } from '../../db/schema/index.ts';
import { TOPICS } from '../../events/topics.ts';
import { createPortal, createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { FakeStripe } from '../../../test/kits/billing/fake-stripe.fixture.ts';

const WEBHOOK_SECRET = 'whsec_test_secret_for_vigil';
let t: TestApp;
const fake = new FakeStripe();
const signer = new Stripe('sk_test_signer');

const form = (name: string) => ({
  name,
  contactName: 'Sam Lee',
  email: 'owner@stripe-co.test',
  phone: '555-0123',
  address: '2 Side St',
  goalScore: 95,
});
const tenantRow = async (id: number) => (await t.database.db.select().from(tenants).where(eq(tenants.id, id)))[0];

async function register(user: TestUser, name: string) {
  const res = await t.call(E.registerWithSubscription, { token: user.token, body: form(name) });
  expect(res.status).toBe(200);
  return res.body.data;
}

function postEvent(event: Record<string, unknown>, signature?: string) {
  const payload = JSON.stringify(event);
  const header = signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return t.app.inject({
    method: 'POST',
    url: '/v0/webhooks/stripe',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
    payload,
  });
}

beforeAll(async () => {
  const base = await fake.start();
  t = await createTestApp({
    env: {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_vigil',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: base,
      PUBLIC_URL: 'https://vigil.example.com',
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

describe('stripe provider (the real SDK against a local fake of the API)', () => {
  let user: TestUser;
  let tenantId: number;
  let sessionId: string;

  it('opens a subscription checkout: 49.99 USD monthly per portal, 30-day trial, tenant as client_reference_id', async () => {
    user = await createUser(t, { tenant: null, roles: [] });
    const { tenant, checkout } = await register(user, 'Stripe Co');
    tenantId = tenant.id;
    sessionId = checkout.sessionId;
    expect(checkout.url).toBe(`https://checkout.stripe.test/c/pay/${sessionId}`);
    const created = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')!;
    const [billing] = await t.database.db.select().from(billings).where(eq(billings.tenantId, tenantId));
    expect(created.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '4999',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][product_data][name]': 'Vigil portal',
      'line_items[0][quantity]': '1',
      'subscription_data[trial_period_days]': '30',
      client_reference_id: String(tenantId),
      customer_email: 'owner@stripe-co.test',
      success_url: `https://vigil.example.com/dashboards/settings?stripe_success=true&session_id={CHECKOUT_SESSION_ID}&tenant_id=${tenantId}&billing_id=${billing.id}`,
      cancel_url: `https://vigil.example.com/dashboards/settings?stripe_success=false&session_id={CHECKOUT_SESSION_ID}&tenant_id=${tenantId}&billing_id=${billing.id}`,
    });
    expect(billing).toMatchObject({ provider: 'stripe', sessionId, status: 'pending', quantity: 1, amountCents: 4999 });
  });

  it('verification asks the provider (retrieve): open session -> unpaid, whatever the flag says', async () => {
    const before = fake.requests.length;
    const res = await t.call(E.verifyCheckoutSession, { token: user.token, body: { sessionId, tenantId, success: true } });
    expect(res.body.data).toEqual({ paymentStatus: 'unpaid' });
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/checkout/sessions/${sessionId}`]);
    expect((await tenantRow(tenantId)).subscriptionStatus).toBe('none');
  });

  it('a completed session referencing another tenant activates nothing', async () => {
    fake.complete(sessionId);
    fake.sessions.get(sessionId)!.client_reference_id = String(tenantId + 1000);
    const res = await t.call(E.verifyCheckoutSession, { token: user.token, body: { sessionId, tenantId, success: true } });
    expect(res.body.data).toEqual({ paymentStatus: 'unpaid' });
    expect((await tenantRow(tenantId)).subscriptionStatus).toBe('none');
    fake.sessions.get(sessionId)!.client_reference_id = String(tenantId);
  });

  it('completed for this tenant -> paid, provider ids saved, tokens carry the tenant', async () => {
    const res = await t.call(E.verifyCheckoutSession, { token: user.token, body: { sessionId, tenantId, success: true } });
    expect(res.body.data.paymentStatus).toBe('paid');
    expect(await t.deps.accessTokens.verify(res.body.data.accessToken!)).toMatchObject({ tenantId, roles: ['Admin'] });
    expect(await tenantRow(tenantId)).toMatchObject({
      subscriptionStatus: 'trialing',
      providerSubscriptionId: `sub_${sessionId}`,
      providerCustomerId: 'cus_fake',
    });
    const [billing] = await t.database.db.select().from(billings).where(eq(billings.tenantId, tenantId));
    expect(billing).toMatchObject({ status: 'paid', subscriptionId: `sub_${sessionId}` });
  });

  it('quantity follows the billable portals through subscriptions.update', async () => {
    const tenant = { id: tenantId, name: 'Stripe Co' };
    await createPortal(t, tenant);
    await createPortal(t, tenant);
    await createPortal(t, tenant);
    await t.deps.bus.publish(TOPICS.portalsChanged, { tenantId });
    const subscriptionPath = `/v1/subscriptions/sub_${sessionId}`;
    for (let i = 0; i < 100 && fake.subscriptions.get(`sub_${sessionId}`)!.quantity !== 3; i++) await new Promise((r) => setTimeout(r, 20));
    const update = fake.requests.find((r) => r.method === 'POST' && r.path === subscriptionPath)!;
    expect(update.form).toMatchObject({ 'items[0][id]': `si_sub_${sessionId}`, 'items[0][quantity]': '3' });
    const [billing] = await t.database.db.select().from(billings).where(eq(billings.tenantId, tenantId));
    expect(billing).toMatchObject({ quantity: 3, amountCents: 3 * 4999 });
  });

  it('when the provider refuses a quantity change, the row goes back so a later change retries', async () => {
    fake.failSubscriptionUpdate = true;
    await createPortal(t, { id: tenantId, name: 'Stripe Co' });
    const { syncQuantity } = await import('./fulfilment.ts');
    const { createPaymentProvider } = await import('./billing.routes.ts');
    await syncQuantity(t.deps, createPaymentProvider(t.deps), tenantId);
    const [billing] = await t.database.db.select().from(billings).where(eq(billings.tenantId, tenantId));
    expect(billing.quantity).toBe(3);
    fake.failSubscriptionUpdate = false;
    await syncQuantity(t.deps, createPaymentProvider(t.deps), tenantId);
    expect(fake.subscriptions.get(`sub_${sessionId}`)!.quantity).toBe(4);
    const [after] = await t.database.db.select().from(billings).where(eq(billings.tenantId, tenantId));
    expect(after.quantity).toBe(4);
  });

  it('without STRIPE_PUBLISHABLE_KEY the web app is told no key (hosted checkout) and the card path is not found', async () => {
    const other = await createUser(t, { tenant: null, roles: [] });
    const config = await t.call(clientConfigEndpoints.get, { token: other.token });
    expect(config.body.data).toMatchObject({ payments: 'stripe', stripePublishableKey: null });
    const before = fake.requests.length;
    expect((await t.call(E.registerWithCardSubscription, { token: other.token, body: form('Keyless Co') })).status).toBe(404);
    expect((await t.call(E.confirmCardSubscription, { token: other.token, body: { billingId: 1 } })).status).toBe(404);
    expect(fake.requests.length).toBe(before);
  });

  it('the provider failing answers "Failed to create checkout session" and leaves no billing row', async () => {
    const other = await createUser(t, { tenant: null, roles: [] });
    fake.failCheckout = true;
    const res = await t.call(E.registerWithSubscription, { token: other.token, body: form('Unlucky Co') });
    fake.failCheckout = false;
    expect(res.status).toBe(500);
    expect(res.body.error!.msg).toBe('Failed to create checkout session');
    const all = await t.database.db.select().from(billings);
    expect(all.every((b) => b.sessionId !== '')).toBe(true);
  });
});

describe('stripe webhooks (signed on the raw body, applied once)', () => {
  let user: TestUser;
  let tenantId: number;
  let sessionId: string;
  const completed = () => ({
    id: 'evt_completed_1',
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'no_payment_required',
        client_reference_id: String(tenantId),
        subscription: 'sub_hook',
        customer: 'cus_hook',
      },
    },
  });

  beforeAll(async () => {
    user = await createUser(t, { tenant: null, roles: [] });
    const data = await register(user, 'Hooked Co');
    tenantId = data.tenant.id;
    sessionId = data.checkout.sessionId;
  });

  it('checkout.session.completed activates the tenant', async () => {
    const res = await postEvent(completed());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { received: true, duplicate: false } });
    expect(await tenantRow(tenantId)).toMatchObject({ subscriptionStatus: 'trialing', providerSubscriptionId: 'sub_hook' });
  });

  it('customer.subscription.updated / deleted mirror the status; a replayed event applies once', async () => {
    const updated = {
      id: 'evt_updated_1',
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: { id: 'sub_hook', object: 'subscription', status: 'active' } },
    };
    expect((await postEvent(updated)).statusCode).toBe(200);
    expect((await tenantRow(tenantId)).subscriptionStatus).toBe('active');
    const deleted = {
      id: 'evt_deleted_1',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: { id: 'sub_hook', object: 'subscription', status: 'canceled' } },
    };
    expect((await postEvent(deleted)).statusCode).toBe(200);
    expect((await tenantRow(tenantId)).subscriptionStatus).toBe('canceled');
    // Replays: applying them again would flip the status back; they are acknowledged and ignored.
    for (const event of [completed(), updated]) {
      const res = await postEvent(event);
      expect(res.statusCode).toBe(200);
      expect(res.json<{ data: { duplicate: boolean } }>().data.duplicate).toBe(true);
    }
    expect((await tenantRow(tenantId)).subscriptionStatus).toBe('canceled');
    const recorded = await t.database.db.select().from(paymentEvents);
    expect(recorded.map((e) => e.eventId).sort()).toEqual(['evt_completed_1', 'evt_deleted_1', 'evt_updated_1']);
    // Verifying the old, completed session again neither revives the cancelled subscription.
    fake.complete(sessionId, 'sub_hook');
    const again = await t.call(E.verifyCheckoutSession, { token: user.token, body: { sessionId } });
    expect(again.body.data.paymentStatus).toBe('paid');
    expect((await tenantRow(tenantId)).subscriptionStatus).toBe('canceled');
  });

  it('a bad or missing signature is a 400 and applies nothing', async () => {
    const forged = { ...completed(), id: 'evt_forged' };
    const payload = JSON.stringify(forged);
    const wrongSecret = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' });
    const bad = await postEvent(forged, wrongSecret);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().error.msg).toBe('Invalid Stripe signature');
    const none = await t.app.inject({
      method: 'POST',
      url: '/v0/webhooks/stripe',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(none.statusCode).toBe(400);
    // Signed, then altered (re-serialized with different spacing): the raw bytes no longer match.
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const altered = await t.app.inject({
      method: 'POST',
      url: '/v0/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload: JSON.stringify(forged, null, 2),
    });
    expect(altered.statusCode).toBe(400);
    expect((await t.database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_forged'))).length).toBe(0);
  });
});

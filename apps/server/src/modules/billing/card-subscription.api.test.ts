import { billingEndpoints as E, clientConfigEndpoints } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billings, tenants } from '../../db/schema/index.ts';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { FakeStripe } from '../../../test/kits/billing/fake-stripe.fixture.ts';
import { createStripeCards, PORTAL_PRODUCT } from './providers/stripe-cards.ts';

const PUBLISHABLE_KEY = 'pk_test_vigilCardDialog';
const WEBHOOK_SECRET = 'whsec_card_dialog_secret';
const signer = new Stripe('sk_test_signer');
let t: TestApp;
let base: string;
const fake = new FakeStripe();

const form = (name: string, email = 'owner@card-co.test') => ({
  name,
  contactName: 'Sam Lee',
  email,
  phone: '555-0123',
  address: '2 Side St',
  goalScore: 95,
});
const tenantRow = async (id: number) => (await t.database.db.select().from(tenants).where(eq(tenants.id, id)))[0];
const billingRow = async (id: number) => (await t.database.db.select().from(billings).where(eq(billings.id, id)))[0];

async function start(user: TestUser, name: string) {
  const res = await t.call(E.registerWithCardSubscription, { token: user.token, body: form(name) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const confirm = (user: TestUser, billingId: unknown) => t.call(E.confirmCardSubscription, { token: user.token, body: { billingId } });

beforeAll(async () => {
  base = await fake.start();
  t = await createTestApp({
    env: {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_vigil',
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
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

describe('card dialog path (Stripe Elements): the real SDK against a local fake of the API', () => {
  it('GET /v0/api/config hands the web app the publishable key', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const res = await t.call(clientConfigEndpoints.get, { token: user.token });
    expect(res.body.data).toMatchObject({ payments: 'stripe', stripePublishableKey: PUBLISHABLE_KEY });
  });

  describe('happy path (trial): SetupIntent, card collected, activated with tokens', () => {
    let user: TestUser;
    let data: Awaited<ReturnType<typeof start>>;

    it('creates the tenant, the customer and an incomplete subscription with the 30-day trial; answers the SetupIntent secret', async () => {
      user = await createUser(t, { tenant: null, roles: [] });
      const before = fake.requests.length;
      data = await start(user, 'Card Co');
      const sub = [...fake.subscriptions.values()].at(-1)!;
      expect(data.intent).toEqual({
        billingId: expect.any(Number) as unknown,
        intentType: 'setup',
        clientSecret: `seti_${sub.id}_secret_fake`,
        publishableKey: PUBLISHABLE_KEY,
      });
      expect(data.tenant).toMatchObject({ name: 'Card Co', email: 'owner@card-co.test' });
      const calls = fake.requests.slice(before);
      expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET /v1/products/${PORTAL_PRODUCT.id}`,
        'POST /v1/products',
        'POST /v1/customers',
        'POST /v1/subscriptions',
      ]);
      expect(calls[2].form).toMatchObject({ email: 'owner@card-co.test', name: 'Card Co', 'metadata[tenantId]': String(data.tenant.id) });
      expect(calls[3].form).toMatchObject({
        customer: sub.customer,
        'items[0][price_data][currency]': 'usd',
        'items[0][price_data][product]': PORTAL_PRODUCT.id,
        'items[0][price_data][unit_amount]': '4999',
        'items[0][price_data][recurring][interval]': 'month',
        'items[0][quantity]': '1',
        trial_period_days: '30',
        'trial_settings[end_behavior][missing_payment_method]': 'cancel',
        payment_behavior: 'default_incomplete',
        'payment_settings[save_default_payment_method]': 'on_subscription',
        'metadata[tenantId]': String(data.tenant.id),
        'metadata[billingId]': String(data.intent.billingId),
      });
      expect(await billingRow(data.intent.billingId)).toMatchObject({
        tenantId: data.tenant.id,
        provider: 'stripe',
        sessionId: sub.id,
        status: 'pending',
        subscriptionId: null,
      });
      expect((await tenantRow(data.tenant.id)).subscriptionStatus).toBe('none');
    });

    it('before the card is collected, confirming asks Stripe and answers unpaid (a trialing subscription alone is not paid)', async () => {
      const before = fake.requests.length;
      const res = await confirm(user, data.intent.billingId);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ paymentStatus: 'unpaid' });
      const sub = (await billingRow(data.intent.billingId)).sessionId;
      expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/subscriptions/${sub}`]);
      expect((await tenantRow(data.tenant.id)).subscriptionStatus).toBe('none');
    });

    it('a subscription made for another tenant activates nothing', async () => {
      const sub = fake.subscriptions.get((await billingRow(data.intent.billingId)).sessionId)!;
      fake.collectCard(sub.id);
      sub.metadata = { ...sub.metadata, tenantId: String(data.tenant.id + 1000) };
      expect((await confirm(user, data.intent.billingId)).body.data).toEqual({ paymentStatus: 'unpaid' });
      expect((await tenantRow(data.tenant.id)).subscriptionStatus).toBe('none');
      sub.metadata = { ...sub.metadata, tenantId: String(data.tenant.id) };
    });

    it('card collected -> paid: the tenant trials with the provider ids, the row is paid, tokens carry the tenant', async () => {
      const res = await confirm(user, data.intent.billingId);
      expect(res.body.data.paymentStatus).toBe('paid');
      expect(await t.deps.accessTokens.verify(res.body.data.accessToken!)).toMatchObject({ tenantId: data.tenant.id, roles: ['Admin'] });
      expect(res.body.data.refreshToken).toEqual(expect.any(String));
      const sub = fake.subscriptions.get((await billingRow(data.intent.billingId)).sessionId)!;
      expect(await tenantRow(data.tenant.id)).toMatchObject({
        subscriptionStatus: 'trialing',
        providerSubscriptionId: sub.id,
        providerCustomerId: sub.customer,
      });
      expect(await billingRow(data.intent.billingId)).toMatchObject({ status: 'paid', subscriptionId: sub.id });
    });

    it('confirming again is harmless; the card row is not a checkout session for verify-checkout-session', async () => {
      expect((await confirm(user, data.intent.billingId)).body.data.paymentStatus).toBe('paid');
      expect((await tenantRow(data.tenant.id)).subscriptionStatus).toBe('trialing');
      const sessionId = (await billingRow(data.intent.billingId)).sessionId;
      expect((await t.call(E.verifyCheckoutSession, { token: user.token, body: { sessionId } })).body.data).toEqual({
        paymentStatus: 'unpaid',
      });
    });

    it('an active subscription cannot be opened twice', async () => {
      const res = await t.call(E.registerWithCardSubscription, { token: user.token, body: form('Card Co') });
      expect(res.status).toBe(409);
    });
  });

  it('a declined card leaves the intent incomplete: unpaid, nothing activated, the row stays pending', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const data = await start(user, 'Declined Co');
    const subId = (await billingRow(data.intent.billingId)).sessionId;
    fake.declineCard(subId);
    const res = await confirm(user, data.intent.billingId);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ paymentStatus: 'unpaid' });
    expect(await tenantRow(data.tenant.id)).toMatchObject({ subscriptionStatus: 'none', providerSubscriptionId: null });
    expect(await billingRow(data.intent.billingId)).toMatchObject({ status: 'pending', subscriptionId: null });
    // The same tenant may try again with another card: a new subscription, the same product.
    const again = await start(user, 'Declined Co');
    expect(again.intent.billingId).not.toBe(data.intent.billingId);
    expect(fake.requests.filter((r) => r.path === '/v1/products' && r.method === 'POST')).toHaveLength(1);
  });

  it('a new attempt cancels the earlier unpaid one at Stripe; an earlier one already paid is fulfilled instead (never two cards)', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const first = await start(user, 'Twice Co');
    const firstSub = (await billingRow(first.intent.billingId)).sessionId;
    const second = await start(user, 'Twice Co');
    expect(fake.subscriptions.get(firstSub)!.status).toBe('canceled');
    expect(fake.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${firstSub}`)).toBe(true);
    expect((await billingRow(first.intent.billingId)).status).toBe('cancelled');
    expect((await confirm(user, first.intent.billingId)).body.data).toEqual({ paymentStatus: 'cancelled' });
    // The second dialog's card went through but its confirmation never came: a third attempt finds it paid.
    const secondSub = (await billingRow(second.intent.billingId)).sessionId;
    fake.collectCard(secondSub);
    const third = await t.call(E.registerWithCardSubscription, { token: user.token, body: form('Twice Co') });
    expect(third.status).toBe(409);
    expect(fake.subscriptions.get(secondSub)!.status).toBe('trialing');
    expect(await tenantRow(second.tenant.id)).toMatchObject({ subscriptionStatus: 'trialing', providerSubscriptionId: secondSub });
    expect((await confirm(user, second.intent.billingId)).body.data.paymentStatus).toBe('paid');
  });

  it('an ended subscription answers cancelled and marks the row cancelled', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const data = await start(user, 'Expired Co');
    fake.subscriptions.get((await billingRow(data.intent.billingId)).sessionId)!.status = 'incomplete_expired';
    expect((await confirm(user, data.intent.billingId)).body.data).toEqual({ paymentStatus: 'cancelled' });
    expect((await billingRow(data.intent.billingId)).status).toBe('cancelled');
    expect((await tenantRow(data.tenant.id)).subscriptionStatus).toBe('none');
  });

  it("another tenant's billing id, a hosted-checkout row or an unknown id is not found (and asks Stripe nothing)", async () => {
    const owner = await createUser(t, { tenant: null, roles: [] });
    const theirs = await start(owner, 'Owner Co');
    fake.collectCard((await billingRow(theirs.intent.billingId)).sessionId);
    const stranger = await createUser(t, { tenant: null, roles: [] });
    const mine = await start(stranger, 'Stranger Co');
    const checkout = await t.call(E.registerWithSubscription, { token: stranger.token, body: form('Stranger Co') });
    expect(checkout.status).toBe(200);
    const checkoutRow = (
      await t.database.db.select().from(billings).where(eq(billings.sessionId, checkout.body.data.checkout.sessionId))
    )[0];
    const noTenant = await createUser(t, { tenant: null, roles: [] });
    const before = fake.requests.length;
    for (const [user, id] of [
      [stranger, theirs.intent.billingId],
      [stranger, checkoutRow.id],
      [stranger, 2_147_483_000],
      [noTenant, mine.intent.billingId],
    ] as const) {
      const res = await confirm(user, id);
      expect(res.status, `billing ${id}`).toBe(404);
      expect(res.body).not.toHaveProperty('data');
    }
    expect(fake.requests.length).toBe(before);
    expect((await tenantRow(theirs.tenant.id)).subscriptionStatus).toBe('none');
    expect((await billingRow(theirs.intent.billingId)).status).toBe('pending');
  });

  it('bad input is a 400 with the field named; a non-Admin of a tenant is refused', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const empty = await t.call(E.confirmCardSubscription, { token: user.token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error!.msg).toContain('billingId is required');
    for (const body of [
      {},
      { billingId: 'x' },
      { billingId: -1 },
      { billingId: 0 },
      { billingId: 1.5 },
      { billingId: 3_000_000_000 },
      { billingId: 1, extra: true },
      null,
    ]) {
      const res = await t.call(E.confirmCardSubscription, { token: user.token, body: body as never });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const missing = await t.call(E.registerWithCardSubscription, { token: user.token, body: { ...form('X'), name: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error!.msg).toContain('Please input tenant name');
    const bad = await t.call(E.registerWithCardSubscription, { token: user.token, body: { ...form('X'), goalScore: 'high' } });
    expect(bad.status).toBe(400);
    const owner = await createUser(t, { tenant: null, roles: [] });
    const { tenant } = await start(owner, 'Roles Co');
    const salesman = await createUser(t, { tenant: { id: tenant.id, name: tenant.name }, roles: ['Salesman'] });
    expect((await t.call(E.registerWithCardSubscription, { token: salesman.token, body: form('Roles Co') })).status).toBe(403);
    expect((await confirm(salesman, 1)).status).toBe(403);
  });

  it('the provider failing answers "Failed to create checkout session" and leaves no billing row', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    fake.failSubscriptionCreate = true;
    const res = await t.call(E.registerWithCardSubscription, { token: user.token, body: form('Unlucky Card Co') });
    fake.failSubscriptionCreate = false;
    expect(res.status).toBe(500);
    expect(res.body.error!.msg).toBe('Failed to create checkout session');
    expect((await t.database.db.select().from(billings)).every((b) => b.sessionId !== '')).toBe(true);
  });
});

describe('webhook: a card collected in the dialog activates even if the browser never confirms', () => {
  const post = (event: Record<string, unknown>) => {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return t.app.inject({
      method: 'POST',
      url: '/v0/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
  };
  const updated = (id: string, sub: Record<string, unknown>) => ({
    id,
    object: 'event',
    type: 'customer.subscription.updated',
    data: { object: { object: 'subscription', ...sub } },
  });

  it('customer.subscription.updated without a card changes nothing; with the card it activates once, for the tenant named in its metadata only', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const data = await start(user, 'Hooked Card Co');
    const subId = (await billingRow(data.intent.billingId)).sessionId;
    const base = {
      id: subId,
      status: 'trialing',
      customer: 'cus_hooked',
      metadata: { tenantId: String(data.tenant.id), billingId: String(data.intent.billingId) },
      pending_setup_intent: `seti_${subId}`,
    };
    expect((await post(updated('evt_card_1', { ...base, default_payment_method: null }))).statusCode).toBe(200);
    expect((await tenantRow(data.tenant.id)).subscriptionStatus).toBe('none');
    const otherTenant = { ...base, default_payment_method: 'pm_card_visa', metadata: { tenantId: String(data.tenant.id + 1000) } };
    expect((await post(updated('evt_card_2', otherTenant))).statusCode).toBe(200);
    expect((await tenantRow(data.tenant.id)).subscriptionStatus).toBe('none');
    expect(
      (await post(updated('evt_card_3', { ...base, default_payment_method: 'pm_card_visa', pending_setup_intent: null }))).statusCode,
    ).toBe(200);
    expect(await tenantRow(data.tenant.id)).toMatchObject({
      subscriptionStatus: 'trialing',
      providerSubscriptionId: subId,
      providerCustomerId: 'cus_hooked',
    });
    expect(await billingRow(data.intent.billingId)).toMatchObject({ status: 'paid', subscriptionId: subId });
    // The browser's confirmation afterwards still answers paid with the tenant's tokens.
    fake.collectCard(subId);
    const res = await confirm(user, data.intent.billingId);
    expect(res.body.data.paymentStatus).toBe('paid');
    expect(await t.deps.accessTokens.verify(res.body.data.accessToken!)).toMatchObject({ tenantId: data.tenant.id });
  });
});

describe('no trial: the first invoice is paid through a PaymentIntent', () => {
  it('answers the invoice secret; paid only once the invoice is paid (active)', async () => {
    const cards = createStripeCards(
      new Stripe('sk_test_vigil', { host: '127.0.0.1', port: new URL(base).port, protocol: 'http', telemetry: false }),
    );
    const created = await cards.create({
      tenantId: 77,
      billingId: 88,
      quantity: 2,
      unitAmountCents: 4999,
      trialDays: 0,
      customerEmail: 'a@b.test',
      customerName: 'No Trial Co',
    });
    expect(created).toMatchObject({ intentType: 'payment', clientSecret: `pi_${created.subscriptionId}_secret_fake` });
    const sent = fake.requests.filter((r) => r.path === '/v1/subscriptions').at(-1)!;
    expect(sent.form).not.toHaveProperty('trial_period_days');
    expect(await cards.state(created.subscriptionId)).toMatchObject({ status: 'unpaid', tenantReference: '77' });
    fake.declineCard(created.subscriptionId);
    expect((await cards.state(created.subscriptionId)).status).toBe('unpaid');
    fake.payInvoice(created.subscriptionId);
    expect(await cards.state(created.subscriptionId)).toMatchObject({
      status: 'paid',
      tenantReference: '77',
      subscriptionId: created.subscriptionId,
      customerId: created.customerId,
    });
    expect(await cards.state('sub_unknown')).toEqual({ status: 'unpaid', tenantReference: null });
  });
});

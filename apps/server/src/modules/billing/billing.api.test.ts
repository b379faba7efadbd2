import { billingEndpoints as E } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billings, tenants } from '../../db/schema/index.ts';
import { TOPICS } from '../../events/topics.ts';
import { createCast, createPortal, createTenant, createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

const form = (name: string) => ({
  name,
  contactName: 'Dana Reyes',
  email: 'billing@acme.test',
  phone: '555-0199',
  address: '1 Main St',
  goalScore: 97,
});
const newcomer = () => createUser(t, { tenant: null, roles: [] });

async function register(user: TestUser, name = 'Acme Security') {
  const res = await t.call(E.registerWithSubscription, { token: user.token, body: form(name) });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Follows the sandbox checkout like a browser: the page, then a button, then the 303 back to Settings. */
async function pressButton(checkoutUrl: string, button: 'pay' | 'cancel') {
  const path = new URL(checkoutUrl).pathname;
  const res = await t.app.inject({
    method: 'POST',
    url: `${path}/${button}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(res.statusCode).toBe(303);
  return new URL(res.headers.location as string);
}

const tenantRow = async (id: number) => (await t.database.db.select().from(tenants).where(eq(tenants.id, id)))[0];

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://vigil.example.com' } });
  cast = await createCast(t);
});
afterAll(() => t.close());

describe('sandbox subscription flow through HTTP', () => {
  it('register -> checkout page -> Pay -> Settings with the params -> verify: paid, tokens carry the new tenant', async () => {
    const user = await newcomer();
    const { tenant, checkout } = await register(user);
    expect(tenant).toMatchObject({ name: 'Acme Security', contactName: 'Dana Reyes', goalScore: 97, subscriptionStatus: 'none' });
    expect(checkout.sessionId).toMatch(/^sbx_cs_[a-f0-9]{32}$/);
    expect(checkout.url).toBe(`https://vigil.example.com/sandbox/checkout/${checkout.sessionId}`);

    const page = await t.app.inject({ method: 'GET', url: new URL(checkout.url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('>Pay</button>');
    expect(page.body).toContain('>Cancel</button>');
    expect(page.body).toContain('49.99 USD');
    expect(page.body).toContain('30-day free trial');
    expect(page.body).not.toContain('<script');
    expect(page.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);

    const back = await pressButton(checkout.url, 'pay');
    expect(`${back.origin}${back.pathname}`).toBe('https://vigil.example.com/dashboards/settings');
    expect(back.searchParams.get('stripe_success')).toBe('true');
    expect(back.searchParams.get('session_id')).toBe(checkout.sessionId);
    expect(back.searchParams.get('tenant_id')).toBe(String(tenant.id));
    const billingId = Number(back.searchParams.get('billing_id'));
    expect(billingId).toBeGreaterThan(0);

    const verified = await t.call(E.verifyCheckoutSession, {
      token: user.token,
      body: { sessionId: checkout.sessionId, tenantId: tenant.id, success: true },
    });
    expect(verified.status).toBe(200);
    expect(verified.body.data.paymentStatus).toBe('paid');
    const claims = await t.deps.accessTokens.verify(verified.body.data.accessToken!);
    expect(claims).toMatchObject({ userId: user.id, tenantId: tenant.id, tenantName: 'Acme Security', roles: ['Admin'] });
    expect(verified.body.data.refreshToken).toBeTruthy();
    expect((await tenantRow(tenant.id)).subscriptionStatus).toBe('trialing');

    // Verifying again is harmless.
    const again = await t.call(E.verifyCheckoutSession, {
      token: user.token,
      body: { sessionId: checkout.sessionId, tenantId: tenant.id, success: true },
    });
    expect(again.body.data.paymentStatus).toBe('paid');

    const list = await t.call(E.list, { token: verified.body.data.accessToken!, query: {} });
    expect(list.status).toBe(200);
    expect(list.body.data.count).toBe(1);
    const record = list.body.data.list[0];
    expect(record).toMatchObject({
      id: billingId,
      provider: 'sandbox',
      sessionId: checkout.sessionId,
      status: 'paid',
      quantity: 1,
      amount: 49.99,
      currency: 'usd',
    });
    expect(record.subscriptionId).toMatch(/^sbx_sub_/);
    expect(new Date(record.periodEnd!).getTime() - new Date(record.periodStart!).getTime()).toBe(30 * 86_400_000);

    // Subscribed now: another checkout is refused.
    const twice = await t.call(E.registerWithSubscription, { token: verified.body.data.accessToken!, body: form('Acme Security') });
    expect(twice.status).toBe(409);
  });

  it('Cancel returns stripe_success=false and verifies as cancelled; nothing activated', async () => {
    const user = await newcomer();
    const { tenant, checkout } = await register(user, 'Cancelling Co');
    const back = await pressButton(checkout.url, 'cancel');
    expect(back.searchParams.get('stripe_success')).toBe('false');
    expect(back.searchParams.get('session_id')).toBe(checkout.sessionId);
    const res = await t.call(E.verifyCheckoutSession, {
      token: user.token,
      body: { sessionId: checkout.sessionId, tenantId: tenant.id, success: false },
    });
    expect(res.body.data).toEqual({ paymentStatus: 'cancelled' });
    expect((await tenantRow(tenant.id)).subscriptionStatus).toBe('none');
    // A cancelled session cannot be paid afterwards.
    const page = await t.app.inject({ method: 'GET', url: new URL(checkout.url).pathname });
    expect(page.body).toContain('This checkout was cancelled.');
    expect(page.body).not.toContain('>Pay</button>');
    expect((await pressButton(checkout.url, 'pay')).searchParams.get('stripe_success')).toBe('false');

    // Trying again updates the same tenant instead of creating a second one.
    const retry = await register(user, 'Cancelling Co Renamed');
    expect(retry.tenant.id).toBe(tenant.id);
    expect(retry.tenant.name).toBe('Cancelling Co Renamed');
  });

  it('a forged success=true for an unpaid session activates nothing', async () => {
    const user = await newcomer();
    const { tenant, checkout } = await register(user, 'Forger Inc');
    const res = await t.call(E.verifyCheckoutSession, {
      token: user.token,
      body: { sessionId: checkout.sessionId, tenantId: tenant.id, success: true },
    });
    expect(res.body.data).toEqual({ paymentStatus: 'unpaid' });
    expect((await tenantRow(tenant.id)).subscriptionStatus).toBe('none');
    const unknown = await t.call(E.verifyCheckoutSession, {
      token: user.token,
      body: { sessionId: 'sbx_cs_00000000000000000000000000000000', tenantId: tenant.id, success: 'true' },
    });
    expect(unknown.body.data).toEqual({ paymentStatus: 'unpaid' });
  });

  it("another tenant's paid session activates nothing for the caller", async () => {
    const payer = await newcomer();
    const paid = await register(payer, 'Payer Ltd');
    await pressButton(paid.checkout.url, 'pay');
    const thief = await newcomer();
    const own = await register(thief, 'Thief Ltd');
    const res = await t.call(E.verifyCheckoutSession, {
      token: thief.token,
      body: { sessionId: paid.checkout.sessionId, tenantId: paid.tenant.id, success: true },
    });
    expect(res.body.data).toEqual({ paymentStatus: 'unpaid' });
    expect((await tenantRow(own.tenant.id)).subscriptionStatus).toBe('none');
    expect((await tenantRow(paid.tenant.id)).subscriptionStatus).toBe('none');
    // The payer's own verification still works afterwards.
    const ok = await t.call(E.verifyCheckoutSession, {
      token: payer.token,
      body: { sessionId: paid.checkout.sessionId, tenantId: paid.tenant.id, success: true },
    });
    expect(ok.body.data.paymentStatus).toBe('paid');
  });

  it('an Admin of a tenant without a subscription may subscribe; its info is updated', async () => {
    const tenant = await createTenant(t, { subscriptionStatus: 'none', freeCount: 1 });
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    await Promise.all([createPortal(t, tenant), createPortal(t, tenant), createPortal(t, tenant)]);
    const { tenant: updated } = await register(admin, 'Renamed Tenant');
    expect(updated.id).toBe(tenant.id);
    expect(updated.name).toBe('Renamed Tenant');
    const [row] = await t.database.db.select().from(billings).where(eq(billings.tenantId, tenant.id));
    expect(row).toMatchObject({ quantity: 2, amountCents: 9998, status: 'pending' });
  });
});

describe('billing permissions and validation', () => {
  it('only a user with no tenant or an Admin reach the onboarding calls', async () => {
    for (const user of [cast.pm, cast.salesman, cast.superAdmin]) {
      expect((await t.call(E.registerWithSubscription, { token: user.token, body: form('X') })).status).toBe(403);
      expect((await t.call(E.verifyCheckoutSession, { token: user.token, body: { sessionId: 'x' } })).status).toBe(403);
    }
    expect((await t.call(E.registerWithSubscription, { body: form('X') })).status).toBe(401);
    // cast.admin's tenant is active already.
    const active = await t.call(E.registerWithSubscription, { token: cast.admin.token, body: form('X') });
    expect(active.status).toBe(409);
    expect(active.body.error!.msg).toBe('The subscription is already active.');
  });

  it('GET /billings: Admin only, own tenant only', async () => {
    expect((await t.call(E.list, { token: cast.admin.token })).body.data).toEqual({ list: [], count: 0 });
    for (const user of [cast.pm, cast.salesman, cast.superAdmin]) expect((await t.call(E.list, { token: user.token })).status).toBe(403);
    expect((await t.call(E.list, { token: cast.admin.token, query: { sort: ['sessionId', 'ASC'] } })).status).toBe(400);
  });

  it("answers the tenant form's messages", async () => {
    const user = await newcomer();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...form('A'), name: '' }, 'Please input tenant name'],
      [{ ...form('A'), contactName: undefined }, 'Please input contact person'],
      [{ ...form('A'), email: ' ' }, 'Please input email'],
      [{ ...form('A'), phone: 5 }, 'Please input phone'],
      [{ ...form('A'), address: '' }, 'Please input address'],
      [{ ...form('A'), goalScore: 'high' }, 'Please input reliability score goal'],
    ];
    for (const [body, msg] of cases) {
      const res = await t.call(E.registerWithSubscription, { token: user.token, body });
      expect(res.status, msg).toBe(400);
      expect(res.body.error!.msg).toBe(msg);
    }
  });

  it('unknown or malformed sandbox sessions are a 404 page', async () => {
    for (const id of ['nope', 'sbx_cs_ffffffffffffffffffffffffffffffff']) {
      expect((await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${id}` })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: `/sandbox/checkout/${id}/pay` })).statusCode).toBe(404);
    }
  });

  it('the webhook route exists only for the stripe provider', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v0/webhooks/stripe',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('quantity follows the billable portals', () => {
  it('portals.changed sets the subscription quantity (portals beyond freeCount)', async () => {
    const user = await newcomer();
    const { tenant, checkout } = await register(user, 'Growing Co');
    await t.database.db.update(tenants).set({ freeCount: 1 }).where(eq(tenants.id, tenant.id));
    await pressButton(checkout.url, 'pay');
    const verified = await t.call(E.verifyCheckoutSession, { token: user.token, body: { sessionId: checkout.sessionId } });
    expect(verified.body.data.paymentStatus).toBe('paid');
    const quantity = async () => (await t.database.db.select().from(billings).where(eq(billings.tenantId, tenant.id)))[0];
    const waitFor = async (q: number) => {
      for (let i = 0; i < 50 && (await quantity()).quantity !== q; i++) await new Promise((r) => setTimeout(r, 20));
      return quantity();
    };
    const t1 = { id: tenant.id, name: tenant.name };
    for (let i = 0; i < 4; i++) await createPortal(t, t1);
    await t.deps.bus.publish(TOPICS.portalsChanged, { tenantId: tenant.id });
    expect(await waitFor(3)).toMatchObject({ quantity: 3, amountCents: 3 * 4999 });
    // The same event twice (two processes): the quantity is set, not added.
    await t.deps.bus.publish(TOPICS.portalsChanged, { tenantId: tenant.id });
    await t.deps.bus.publish(TOPICS.portalsChanged, { tenantId: tenant.id });
    await new Promise((r) => setTimeout(r, 100));
    expect((await quantity()).quantity).toBe(3);
  });
});

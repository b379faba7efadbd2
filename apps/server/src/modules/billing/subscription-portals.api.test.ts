import { billingEndpoints as E, PORTAL_MSG, portalEndpoints } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billings } from '../../db/schema/index.ts';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/**
 * The interplay with the portals module through HTTP only: without a subscription the Add
 * Portal call answers 402; after the sandbox checkout it succeeds, and each new portal moves
 * the subscription quantity (via the portals.changed event the portals module publishes).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const addPortal = (token: string, name: string) => t.call(portalEndpoints.create, { token, body: { name, apiKey: `key-${name}` } });

describe('402 until subscribed, then quantity in step with portals', () => {
  it('signup -> 402 -> subscribe (sandbox) -> portals added -> quantity follows', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const reg = await t.call(E.registerWithSubscription, {
      token: user.token,
      body: { name: 'Step Co', contactName: 'Kim', email: 'kim@step.test', phone: '555', address: 'Road 1', goalScore: 95 },
    });
    expect(reg.status).toBe(200);
    const { tenant, checkout } = reg.body.data;

    // The caller is the tenant's Admin now, but has not paid: no free portal, so 402.
    const admin = { ...user, tenantId: tenant.id, tenantName: tenant.name, roles: ['Admin' as const] };
    const unpaidToken = await t.deps.accessTokens.sign({
      userId: admin.id,
      userName: admin.name,
      tenantId: tenant.id,
      tenantName: tenant.name,
      roles: admin.roles,
    });
    const refused = await addPortal(unpaidToken, 'Too Early');
    expect(refused.status).toBe(402);
    expect(refused.body.error!.msg).toBe(PORTAL_MSG.paymentRequired);

    const pay = await t.app.inject({ method: 'POST', url: `${new URL(checkout.url).pathname}/pay` });
    expect(pay.statusCode).toBe(303);
    const verified = await t.call(E.verifyCheckoutSession, {
      token: user.token,
      body: { sessionId: checkout.sessionId, tenantId: tenant.id, success: true },
    });
    expect(verified.body.data.paymentStatus).toBe('paid');
    const token = verified.body.data.accessToken!;

    const quantity = async () => (await t.database.db.select().from(billings).where(eq(billings.tenantId, tenant.id)))[0].quantity;
    const waitFor = async (q: number) => {
      for (let i = 0; i < 100 && (await quantity()) !== q; i++) await new Promise((r) => setTimeout(r, 20));
      return quantity();
    };
    expect(await quantity()).toBe(1);
    for (const name of ['North', 'South', 'East']) expect((await addPortal(token, name)).status).toBe(201);
    expect(await waitFor(3)).toBe(3);
    const list = await t.call(E.list, { token });
    expect(list.body.data.list[0]).toMatchObject({ quantity: 3, amount: 149.97, status: 'paid' });
  });
});

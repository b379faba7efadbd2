import { clientConfigEndpoints } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp({ env: { COMMAND_PORTAL_URL: 'https://command.acme.test/console' } });
  cast = await createCast(t);
});
afterAll(() => t.close());

describe('GET /v0/api/config', () => {
  it("answers the deployment's command portal URL and payments mode to every signed-in user", async () => {
    const noTenantYet = await createUser(t, { tenant: null, roles: [] });
    for (const user of [cast.admin, cast.pm, cast.salesman, cast.superAdmin, cast.otherAdmin, noTenantYet]) {
      const answer = await t.call(clientConfigEndpoints.get, { token: user.token });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        data: { commandPortalUrl: 'https://command.acme.test/console', payments: 'sandbox', stripePublishableKey: null },
      });
    }
  });

  it('the sandbox has no card path: both of its routes are not found (after validation)', async () => {
    const { billingEndpoints } = await import('@vigil/contracts');
    const noTenantYet = await createUser(t, { tenant: null, roles: [] });
    const body = { name: 'Sandbox Co', contactName: 'C', email: 'c@sandbox.test', phone: '1', address: 'A', goalScore: 90 };
    expect((await t.call(billingEndpoints.registerWithCardSubscription, { token: noTenantYet.token, body })).status).toBe(404);
    expect((await t.call(billingEndpoints.confirmCardSubscription, { token: noTenantYet.token, body: { billingId: 1 } })).status).toBe(404);
    expect((await t.call(billingEndpoints.confirmCardSubscription, { token: noTenantYet.token, body: { billingId: 'x' } })).status).toBe(
      400,
    );
  });

  it('answers 401 without a token', async () => {
    const answer = await t.call(clientConfigEndpoints.get, {});
    expect(answer.status).toBe(401);
  });
});

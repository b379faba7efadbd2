import { MSG, PORTAL_MSG, portalEndpoints } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { TOPICS } from '../../events/topics.ts';
import { createCast, createTenant, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

const form = (name = 'Acme Offices', apiKey = 'ak_live_1234567890abcd') => ({ name, apiKey });

async function create(token: string, body: unknown = form()) {
  return t.call(portalEndpoints.create, { token, body });
}

describe('POST /customers (Add Portal)', () => {
  it('creates a portal for an Admin and a Project Manager, showing the webhook URL, secret and key once', async () => {
    for (const user of [cast.admin, cast.pm]) {
      const res = await create(user.token, form(`Portal of ${user.roles[0]}`));
      expect(res.status).toBe(201);
      const p = res.body.data;
      expect(p).toMatchObject({
        name: `Portal of ${user.roles[0]}`,
        customerName: `Portal of ${user.roles[0]}`,
        customerId: p.id,
        tenantId: cast.tenant.id,
        tenantName: cast.tenant.name,
        apiKey: 'ak_live_1234567890abcd',
        cameraCount: 0,
        reliabilityScore: -1,
      });
      expect(p.webhookUrl).toBe(`${t.config.publicUrl}/v0/webhooks/portals/${p.id}`);
      expect(p.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(p.webhookSecret!.slice(6), 'base64')).toHaveLength(32);
    }
  });

  it('keeps the API key and the secret encrypted at rest', async () => {
    const res = await create(cast.admin.token, form('Sealed', 'plain-key-should-not-be-stored'));
    const [row] = await queryRows<{ api_key_enc: string; webhook_secret_enc: string }>(
      t.database.db,
      sql`select api_key_enc, webhook_secret_enc from portals where id = ${res.body.data.id}`,
    );
    expect(row.api_key_enc).not.toContain('plain-key');
    expect(row.webhook_secret_enc).not.toContain(res.body.data.webhookSecret!.slice(6));
  });

  it('refuses the Salesman (403) and the superAdmin (403 with the redirect-to-tenant message)', async () => {
    expect((await create(cast.salesman.token)).body.error).toEqual({ code: 'FORBIDDEN', msg: 'Forbidden. You do not have access.' });
    const asSuper = await create(cast.superAdmin.token);
    expect(asSuper.status).toBe(403);
    expect(asSuper.body.error!.msg).toBe(MSG.tenantOnly);
    expect((await t.call(portalEndpoints.create, { body: form() })).status).toBe(401);
  });

  it.each([
    [{ apiKey: 'k' }, MSG.customerName],
    [{ name: '   ', apiKey: 'k' }, MSG.customerName],
    [{ name: 42, apiKey: 'k' }, MSG.customerName],
    [{ name: 'Acme' }, MSG.apiKey],
    [{ name: 'Acme', apiKey: '' }, MSG.apiKey],
    [{ name: 'Acme', apiKey: null }, MSG.apiKey],
  ])('answers 400 with the product message for %j', async (body, msg) => {
    const res = await create(cast.admin.token, body);
    expect(res.status).toBe(400);
    expect(res.body.error!.msg).toBe(msg);
  });

  it('rejects unknown keys', async () => {
    expect((await create(cast.admin.token, { ...form(), tenantId: cast.other.id })).status).toBe(400);
  });

  it('publishes portals.changed for billing after the commit', async () => {
    const seen: unknown[] = [];
    const stop = t.deps.bus.subscribe(TOPICS.portalsChanged, (e) => seen.push(e));
    try {
      await create(cast.admin.token, form('Eventful'));
      await expect.poll(() => seen).toEqual([{ tenantId: cast.tenant.id }]);
    } finally {
      stop();
    }
  });
});

describe('the 402 rule (docs/decisions.md 36)', () => {
  async function adminOf(fields: Parameters<typeof createTenant>[1]) {
    return createUser(t, { tenant: await createTenant(t, fields), roles: ['Admin'] });
  }

  it('allows the free portals, then answers 402 without a subscription', async () => {
    const admin = await adminOf({ subscriptionStatus: 'none', freeCount: 1 });
    expect((await create(admin.token, form('Free one'))).status).toBe(201);
    const second = await create(admin.token, form('Second'));
    expect(second.status).toBe(402);
    expect(second.body.error).toEqual({ code: 'PAYMENT_REQUIRED', msg: PORTAL_MSG.paymentRequired });
  });

  it.each([
    ['none', 0, false, 402],
    ['past_due', 0, false, 402],
    ['canceled', 0, false, 402],
    ['trialing', 0, false, 201],
    ['active', 0, false, 201],
    ['none', 0, true, 201],
  ])('subscription %s, freeCount %d, freeTier %s: %d', async (subscriptionStatus, freeCount, freeTier, status) => {
    const admin = await adminOf({ subscriptionStatus, freeCount, freeTier });
    expect((await create(admin.token)).status).toBe(status);
  });
});

describe('GET /customers/:id, POST /customers/:id, POST /customers/:id/webhook-secret', () => {
  let id: number;
  beforeAll(async () => {
    id = (await create(cast.admin.token, form('Detail Co', 'key-abcdefgh-WXYZ'))).body.data.id;
  });

  it('shows the full key and the secret to editors only; others see the key masked and no secret', async () => {
    for (const editor of [cast.admin, cast.pm]) {
      const { body } = await t.call(portalEndpoints.get, { token: editor.token, params: { id } });
      expect(body.data).toMatchObject({ id, apiKey: 'key-abcdefgh-WXYZ' });
      expect(body.data.webhookSecret).toMatch(/^whsec_/);
    }
    for (const reader of [cast.salesman, cast.superAdmin]) {
      const { status, body } = await t.call(portalEndpoints.get, { token: reader.token, params: { id } });
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ apiKey: '••••WXYZ', webhookSecret: null, tenantName: cast.tenant.name });
    }
  });

  it('updates name and key with the same validation and roles', async () => {
    const res = await t.call(portalEndpoints.update, {
      token: cast.pm.token,
      params: { id },
      body: form('Detail Renamed', 'new-key-000011112222'),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Detail Renamed', customerName: 'Detail Renamed', apiKey: 'new-key-000011112222' });
    expect(
      (await t.call(portalEndpoints.update, { token: cast.admin.token, params: { id }, body: { name: '', apiKey: 'x' } })).body.error!.msg,
    ).toBe(MSG.customerName);
    expect((await t.call(portalEndpoints.update, { token: cast.admin.token, params: { id }, body: { name: 'x' } })).body.error!.msg).toBe(
      MSG.apiKey,
    );
    expect((await t.call(portalEndpoints.update, { token: cast.salesman.token, params: { id }, body: form() })).status).toBe(403);
    expect((await t.call(portalEndpoints.update, { token: cast.superAdmin.token, params: { id }, body: form() })).status).toBe(403);
  });

  it('rotates the secret: a new one is shown, the old one is kept as the previous one', async () => {
    const before = (await t.call(portalEndpoints.get, { token: cast.admin.token, params: { id } })).body.data.webhookSecret;
    const res = await t.call(portalEndpoints.rotateSecret, { token: cast.admin.token, params: { id } });
    expect(res.status).toBe(200);
    expect(res.body.data.webhookSecret).toMatch(/^whsec_/);
    expect(res.body.data.webhookSecret).not.toBe(before);
    const [row] = await queryRows<{ previous_webhook_secret_enc: string; previous_secret_expires_at: string }>(
      t.database.db,
      sql`select previous_webhook_secret_enc, previous_secret_expires_at from portals where id = ${id}`,
    );
    expect(t.deps.secretBox.open(row.previous_webhook_secret_enc)).toBe(before);
    expect(new Date(row.previous_secret_expires_at).getTime()).toBe(t.clock.now().getTime() + 86_400_000);
    expect((await t.call(portalEndpoints.rotateSecret, { token: cast.salesman.token, params: { id } })).status).toBe(403);
  });

  it("answers 404 for another tenant's portal and for a nonexistent one, on every route", async () => {
    const foreign = (await create(cast.otherAdmin.token, form('Foreign'))).body.data.id;
    for (const target of [foreign, 999_999]) {
      expect((await t.call(portalEndpoints.get, { token: cast.admin.token, params: { id: target } })).body.error).toEqual({
        code: 'NOT_FOUND',
        msg: 'Resource not found.',
      });
      expect((await t.call(portalEndpoints.update, { token: cast.admin.token, params: { id: target }, body: form() })).status).toBe(404);
      expect((await t.call(portalEndpoints.rotateSecret, { token: cast.admin.token, params: { id: target } })).status).toBe(404);
    }
    const stillForeign = await t.call(portalEndpoints.get, { token: cast.otherAdmin.token, params: { id: foreign } });
    expect(stillForeign.body.data.name).toBe('Foreign');
    expect((await t.call(portalEndpoints.get, { token: cast.admin.token, params: { id: 'abc' } })).status).toBe(404); // not an id (docs/decisions.md 18)
  });

  it('refuses a user without a tenant', async () => {
    const loner = await createUser(t, { tenant: null, roles: [] });
    expect((await t.call(portalEndpoints.get, { token: loner.token, params: { id } })).status).toBe(403);
    expect((await t.call(portalEndpoints.list, { token: loner.token })).status).toBe(403);
  });
});

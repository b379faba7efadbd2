import { NOTIFY_MSG, notificationChannelEndpoints as ch, notificationEndpoints, tenantsEndpoints } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { sql } from 'drizzle-orm';
import { createCast, createPortal, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { expectError } from '../../../test/kits/cases/operations-test-support.ts';

/** Channels API with the default outbound rules (private targets refused). */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

const PUBLIC_URL = 'https://93.184.215.14/hooks/vigil';
const create = (body: unknown, token = cast.admin.token) => t.call(ch.create, { token, body });

describe('notification channels', () => {
  it('creates a webhook channel with its own whsec_ secret and the defaults', async () => {
    const res = await create({ name: 'Ops webhook', type: 'webhook', target: PUBLIC_URL });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Ops webhook',
      type: 'webhook',
      target: PUBLIC_URL,
      enabled: true,
      events: ['alert.opened', 'alert.resolved'],
      customerIds: [],
      delayMinutes: 5,
      repeatMinutes: 0,
    });
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  });

  it('shows the secret to Admins and Project Managers only, and keeps targets and secrets sealed at rest', async () => {
    const created = await create({ name: 'Sealed', type: 'webhook', target: PUBLIC_URL });
    const id = created.body.data.id;
    const asPm = await t.call(ch.get, { token: cast.pm.token, params: { id } });
    expect(asPm.body.data.secret).toBe(created.body.data.secret);
    const asSalesman = await t.call(ch.get, { token: cast.salesman.token, params: { id } });
    expect(asSalesman.status).toBe(200);
    expect(asSalesman.body.data.secret).toBeNull();
    expect(asSalesman.body.data.target).toBe(PUBLIC_URL);
    const [row] = await queryRows<{ target_enc: string; secret_enc: string }>(
      t.database.db,
      sql`select target_enc, secret_enc from notification_channels where id = ${id}`,
    );
    expect(row.target_enc).not.toContain('93.184');
    expect(row.secret_enc).not.toContain('whsec_');
  });

  it('rotates a webhook secret (and refuses for other types)', async () => {
    const created = await create({ name: 'Rotating', type: 'webhook', target: PUBLIC_URL });
    const rotated = await t.call(ch.rotateSecret, { token: cast.pm.token, params: { id: created.body.data.id }, body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);
    const mail = await create({ name: 'Mail', type: 'email', target: ['ops@example.com'] });
    expectError(await t.call(ch.rotateSecret, { token: cast.admin.token, params: { id: mail.body.data.id }, body: {} }), 400);
  });

  it('validates with the product messages', async () => {
    expectError(await create({ type: 'email', target: ['a@example.com'] }), 400, { endsWith: NOTIFY_MSG.name });
    expectError(await create({ name: 'X', type: 'fax', target: 'x' }), 400, { endsWith: NOTIFY_MSG.type });
    expectError(await create({ name: 'X', type: 'email', target: [] }), 400, { endsWith: NOTIFY_MSG.emailTarget });
    expectError(await create({ name: 'X', type: 'email', target: ['not-an-address'] }), 400, { endsWith: NOTIFY_MSG.emailFormat });
    expectError(await create({ name: 'X', type: 'webhook', target: 'ftp://example.com/x' }), 400, { endsWith: NOTIFY_MSG.urlFormat });
    expectError(await create({ name: 'X', type: 'slack', target: '' }), 400, { endsWith: NOTIFY_MSG.urlTarget });
    expectError(await create({ name: 'X', type: 'webhook', target: PUBLIC_URL, events: [] }), 400, { endsWith: NOTIFY_MSG.events });
    expectError(await create({ name: 'X', type: 'webhook', target: PUBLIC_URL, delayMinutes: 1441 }), 400, {
      endsWith: NOTIFY_MSG.delayMinutes,
    });
    expectError(await create({ name: 'X', type: 'webhook', target: PUBLIC_URL, repeatMinutes: -1 }), 400, {
      endsWith: NOTIFY_MSG.repeatMinutes,
    });
    expectError(await create({ name: 'X', type: 'webhook', target: PUBLIC_URL, customerIds: [999999] }), 400, NOTIFY_MSG.unknownCustomer);
    expectError(await create({ name: 'X', type: 'webhook', target: PUBLIC_URL, extra: 1 }), 400);
  });

  it('refuses loopback, private and link-local targets with 400', async () => {
    for (const target of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.10/hook',
      'http://172.20.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fe80::1]/hook',
      'http://0.0.0.0/hook',
    ]) {
      expectError(await create({ name: 'Inside', type: 'webhook', target }), 400, NOTIFY_MSG.privateTarget);
    }
    const slack = await create({ name: 'Slack', type: 'slack', target: PUBLIC_URL });
    expectError(
      await t.call(ch.update, { token: cast.admin.token, params: { id: slack.body.data.id }, body: { target: 'http://10.0.0.1/' } }),
      400,
      NOTIFY_MSG.privateTarget,
    );
  });

  it('edits any subset of fields; a type change needs a target', async () => {
    const { id } = (await create({ name: 'Edit me', type: 'email', target: ['a@example.com'] })).body.data;
    const portal = await createPortal(t, cast.tenant);
    const res = await t.call(ch.update, {
      token: cast.pm.token,
      params: { id },
      body: {
        name: 'Edited',
        enabled: false,
        events: ['alert.repeated', 'alert.opened'],
        customerIds: [portal.id],
        delayMinutes: 0,
        repeatMinutes: 30,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Edited',
      target: ['a@example.com'],
      enabled: false,
      events: ['alert.opened', 'alert.repeated'],
      customerIds: [portal.id],
      delayMinutes: 0,
      repeatMinutes: 30,
      secret: null,
    });
    expectError(await t.call(ch.update, { token: cast.pm.token, params: { id }, body: { type: 'webhook' } }), 400, {
      endsWith: NOTIFY_MSG.typeChangeNeedsTarget,
    });
    expectError(
      await t.call(ch.update, { token: cast.pm.token, params: { id }, body: { target: 'https://93.184.215.14/' } }),
      400,
      NOTIFY_MSG.emailTarget,
    );
    const toWebhook = await t.call(ch.update, { token: cast.pm.token, params: { id }, body: { type: 'webhook', target: PUBLIC_URL } });
    expect(toWebhook.body.data.secret).toMatch(/^whsec_/);
  });

  it('lets Admins and Project Managers manage, every tenant role read, and the superAdmin read only', async () => {
    const { id } = (await create({ name: 'Roles', type: 'teams', target: PUBLIC_URL })).body.data;
    expectError(await create({ name: 'S', type: 'teams', target: PUBLIC_URL }, cast.salesman.token), 403);
    expectError(await create({ name: 'S', type: 'teams', target: PUBLIC_URL }, cast.superAdmin.token), 403);
    expectError(await t.call(ch.update, { token: cast.salesman.token, params: { id }, body: { name: 'No' } }), 403);
    expectError(await t.call(ch.remove, { token: cast.salesman.token, params: { id } }), 403);
    expectError(await t.call(ch.test, { token: cast.salesman.token, params: { id }, body: {} }), 403);
    const list = await t.call(ch.list, { token: cast.salesman.token, query: { range: [0, 100] } });
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((c) => c.id)).toContain(id);
    expect(list.body.data.list.every((c) => c.secret === null)).toBe(true);
    const all = await t.call(ch.list, { token: cast.superAdmin.token, query: { range: [0, 100] } });
    expect(all.body.data.list.map((c) => c.id)).toContain(id);
    expect((await t.call(notificationEndpoints.list, { token: cast.superAdmin.token })).status).toBe(200);
  });

  it("answers 404 for another tenant's channel", async () => {
    const { id } = (await create({ name: 'Mine', type: 'webhook', target: PUBLIC_URL })).body.data;
    expectError(await t.call(ch.get, { token: cast.otherAdmin.token, params: { id } }), 404);
    expectError(await t.call(ch.update, { token: cast.otherAdmin.token, params: { id }, body: { name: 'Theirs' } }), 404);
    expectError(await t.call(ch.remove, { token: cast.otherAdmin.token, params: { id } }), 404);
    const theirs = await t.call(ch.list, { token: cast.otherAdmin.token, query: { range: [0, 100] } });
    expect(theirs.body.data.list.map((c) => c.id)).not.toContain(id);
  });

  it('deletes a channel: gone from the list and 404 afterwards', async () => {
    const { id } = (await create({ name: 'Doomed', type: 'webhook', target: PUBLIC_URL })).body.data;
    expect((await t.call(ch.remove, { token: cast.admin.token, params: { id } })).status).toBe(200);
    expectError(await t.call(ch.get, { token: cast.admin.token, params: { id } }), 404);
    const list = await t.call(ch.list, { token: cast.admin.token, query: { range: [0, 100], filter: { q: 'Doomed' } } });
    expect(list.body.data.count).toBe(0);
  });

  it('filters and sorts the list', async () => {
    await create({ name: 'Zeta filter', type: 'slack', target: PUBLIC_URL });
    await create({ name: 'Alpha filter', type: 'slack', target: PUBLIC_URL, enabled: false });
    const res = await t.call(ch.list, {
      token: cast.admin.token,
      query: { range: [0, 10], sort: ['name', 'ASC'], filter: { q: 'filter', type: 'slack' } },
    });
    expect(res.body.data.list.map((c) => c.name)).toEqual(['Alpha filter', 'Zeta filter']);
    const enabled = await t.call(ch.list, { token: cast.admin.token, query: { filter: { q: 'filter', enabled: true } } });
    expect(enabled.body.data.list.map((c) => c.name)).toEqual(['Zeta filter']);
    expectError(await t.call(ch.list, { token: cast.admin.token, query: { sort: ['target', 'ASC'] } }), 400);
  });

  it('gives a new tenant the enabled "Admins" email channel to its Admins', async () => {
    const newcomer = await createUser(t, { tenant: null, roles: [] });
    const created = await t.call(tenantsEndpoints.create, {
      token: newcomer.token,
      body: { name: 'Fresh Co', contactName: 'Fresh', email: 'fresh@example.com', phone: '555', address: '1 Road', goalScore: 95 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token = (created.body.data as { accessToken: string }).accessToken;
    const list = await t.call(ch.list, { token });
    expect(list.body.data.list).toEqual([
      {
        id: expect.any(Number) as number,
        name: 'Admins',
        type: 'email',
        target: [newcomer.email],
        enabled: true,
        events: ['alert.opened', 'alert.resolved'],
        customerIds: [],
        delayMinutes: 5,
        repeatMinutes: 0,
        secret: null,
      },
    ]);
    const byPlatform = await t.call(tenantsEndpoints.create, {
      token: cast.superAdmin.token,
      body: { name: 'Platform Co', contactName: 'P', email: 'p@example.com', phone: '555', address: '2 Road', goalScore: 95 },
    });
    expect(byPlatform.status).toBe(201);
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from notification_channels where tenant_id = ${byPlatform.body.data.id} and name = 'Admins' and to_admins`,
    );
    expect(row.n).toBe(1);
  });
});

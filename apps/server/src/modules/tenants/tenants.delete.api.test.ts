import { authEndpoints, tenantsEndpoints, usersEndpoints } from '@vigil/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, tenants } from '../../db/schema/index.ts';
import { createCast, createTenant, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

describe('DELETE /tenants/:id', () => {
  it('soft-deletes: data kept, gone from lists, its users signed out and unable to sign in again', async () => {
    const doomed = await createTenant(t, { name: 'Doomed Co' });
    const admin = await createUser(t, { tenant: doomed, roles: ['Admin'] });
    const login = await t.call(authEndpoints.login, { body: { email: admin.email, password: admin.password } });
    expect(login.status).toBe(200);

    const res = await t.call(tenantsEndpoints.remove, { token: cast.superAdmin.token, params: { id: doomed.id } });
    expect(res.status).toBe(200);

    const [row] = await t.database.db.select().from(tenants).where(eq(tenants.id, doomed.id));
    expect(row?.name).toBe('Doomed Co');
    expect(row?.deletedAt).toEqual(t.clock.now());
    const live = await t.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, admin.id), isNull(refreshTokens.revokedAt)));
    expect(live).toHaveLength(0);

    expect((await t.call(authEndpoints.refresh, { body: { refreshToken: login.body.data.refreshToken } })).status).toBe(401);
    expect((await t.call(authEndpoints.login, { body: { email: admin.email, password: admin.password } })).status).toBe(401);

    const list = await t.call(tenantsEndpoints.list, { token: cast.superAdmin.token, query: { range: [0, 1000] } });
    expect(list.body.data.list.some((x) => x.id === doomed.id)).toBe(false);
    const all = await t.call(tenantsEndpoints.all, { token: cast.superAdmin.token });
    expect(all.body.data.some((x) => x.id === doomed.id)).toBe(false);
    expect((await t.call(tenantsEndpoints.get, { token: cast.superAdmin.token, params: { id: doomed.id } })).status).toBe(404);
    const users = await t.call(usersEndpoints.list, { token: cast.superAdmin.token, query: { range: [0, 1000] } });
    expect(users.body.data.list.some((u) => u.id === admin.id)).toBe(false);
  });

  it('answers 404 for an unknown or already deleted tenant', async () => {
    const once = await createTenant(t);
    expect((await t.call(tenantsEndpoints.remove, { token: cast.superAdmin.token, params: { id: once.id } })).status).toBe(200);
    expect((await t.call(tenantsEndpoints.remove, { token: cast.superAdmin.token, params: { id: once.id } })).status).toBe(404);
    expect((await t.call(tenantsEndpoints.remove, { token: cast.superAdmin.token, params: { id: 999999 } })).status).toBe(404);
  });

  it('deletes nothing through a non-canonical id: DELETE /tenants/0x10 once deleted tenant 16', async () => {
    const kept = await createTenant(t, { name: 'Kept Hex Co' });
    for (const form of [`0x${kept.id.toString(16)}`, `+${kept.id}`, `${kept.id}e0`, `0000${kept.id}`, `%20${kept.id}`, `${kept.id}.0`]) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/v0/api/tenants/${form}`,
        headers: { authorization: `Bearer ${cast.superAdmin.token}` },
      });
      expect([form, res.statusCode, res.json()]).toEqual([form, 404, { error: { code: 'NOT_FOUND', msg: 'Resource not found.' } }]);
    }
    const [row] = await t.database.db.select().from(tenants).where(eq(tenants.id, kept.id));
    expect(row?.deletedAt).toBeNull();
  });

  it('is refused to every tenant role, its own Admin included, and to a user with no tenant', async () => {
    const noTenant = await createUser(t, { tenant: null, roles: [] });
    for (const u of [cast.admin, cast.pm, cast.salesman, noTenant]) {
      expect((await t.call(tenantsEndpoints.remove, { token: u.token, params: { id: cast.tenant.id } })).status).toBe(403);
    }
    const still = await t.call(tenantsEndpoints.get, { token: cast.admin.token, params: { id: cast.tenant.id } });
    expect(still.status).toBe(200);
  });
});

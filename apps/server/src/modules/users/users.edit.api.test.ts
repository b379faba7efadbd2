import { authEndpoints, MSG, USER_MSG, usersEndpoints } from '@vigil/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, users } from '../../db/schema/index.ts';
import { createCast, createTenant, createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

/** Signs the user in through the auth API; its refresh token shows whether the session survives. */
async function signIn(u: TestUser): Promise<string> {
  const res = await t.call(authEndpoints.login, { body: { email: u.email, password: u.password } });
  expect(res.status).toBe(200);
  return res.body.data.refreshToken;
}
const liveSessions = async (userId: number) =>
  (
    await t.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
  ).length;

describe('PATCH /users/:id', () => {
  it('an Admin edits name parts, email and phone of its tenant user; sessions survive when roles stay', async () => {
    const u = await createUser(t, { tenant: cast.tenant, roles: ['Salesman'] });
    await signIn(u);
    const res = await t.call(usersEndpoints.update, {
      token: cast.admin.token,
      params: { id: u.id },
      body: {
        firstName: 'Jean',
        lastName: 'Luc Picard',
        email: `jl${u.id}@example.com`,
        phone: '555-0177',
        tenantName: 'ignored',
        roles: ['Salesman'],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Jean Luc Picard',
      firstName: 'Jean',
      lastName: 'Luc Picard',
      email: `jl${u.id}@example.com`,
      phone: '555-0177',
      tenantName: cast.tenant.name,
    });
    expect(await liveSessions(u.id)).toBe(1);

    const byName = await t.call(usersEndpoints.update, { token: cast.admin.token, params: { id: u.id }, body: { name: '  Solo  ' } });
    expect(byName.body.data).toMatchObject({ name: 'Solo', firstName: 'Solo', lastName: '' });
  });

  it("changing roles ends the user's sessions, so the next refresh fails and a new sign-in carries the roles", async () => {
    const u = await createUser(t, { tenant: cast.tenant, roles: ['Salesman'] });
    const refreshToken = await signIn(u);
    const res = await t.call(usersEndpoints.update, {
      token: cast.admin.token,
      params: { id: u.id },
      body: { roles: ['Project Manager', 'Salesman'] },
    });
    expect(res.body.data.roles).toEqual(['Project Manager', 'Salesman']);
    expect(await liveSessions(u.id)).toBe(0);
    expect((await t.call(authEndpoints.refresh, { body: { refreshToken } })).status).toBe(401);
    const login = await t.call(authEndpoints.login, { body: { email: u.email, password: u.password } });
    expect((await t.deps.accessTokens.verify(login.body.data.accessToken))?.roles).toEqual(['Project Manager', 'Salesman']);
  });

  it('a superAdmin moves a user to another tenant (sessions end) and cannot clear the tenant', async () => {
    const target = await createTenant(t);
    const u = await createUser(t, { tenant: cast.tenant, roles: ['Project Manager'] });
    await signIn(u);
    const res = await t.call(usersEndpoints.update, { token: cast.superAdmin.token, params: { id: u.id }, body: { tenantId: target.id } });
    expect(res.body.data).toMatchObject({ tenantId: target.id, tenantName: target.name });
    expect(await liveSessions(u.id)).toBe(0);
    for (const tenantId of [null, 999999]) {
      const bad = await t.call(usersEndpoints.update, { token: cast.superAdmin.token, params: { id: u.id }, body: { tenantId } });
      expect([bad.status, bad.body.error?.msg]).toEqual([400, MSG.editTenant]);
    }
    // An Admin's tenantId is ignored: the user stays in its tenant.
    const v = await createUser(t, { tenant: cast.tenant, roles: ['Salesman'] });
    const ignored = await t.call(usersEndpoints.update, {
      token: cast.admin.token,
      params: { id: v.id },
      body: { tenantId: cast.other.id },
    });
    expect(ignored.body.data.tenantId).toBe(cast.tenant.id);
  });

  it('a superAdmin gives a signed-up user (no tenant) a tenant and roles', async () => {
    const person = await createUser(t, { tenant: null, roles: [] });
    const noTenantRoles = await t.call(usersEndpoints.update, {
      token: cast.superAdmin.token,
      params: { id: person.id },
      body: { roles: ['Salesman'] },
    });
    expect([noTenantRoles.status, noTenantRoles.body.error?.msg]).toEqual([400, MSG.editTenant]);
    const res = await t.call(usersEndpoints.update, {
      token: cast.superAdmin.token,
      params: { id: person.id },
      body: { tenantId: cast.other.id, roles: ['Salesman'] },
    });
    expect(res.body.data).toMatchObject({ tenantId: cast.other.id, roles: ['Salesman'] });
  });

  it('answers the edit messages for empty roles, blank fields and a taken email', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ roles: [] }, 400, MSG.editRoles],
      [{ roles: null }, 400, MSG.editRoles],
      [{ firstName: ' ' }, 400, MSG.firstName],
      [{ name: '' }, 400, MSG.fullName],
      [{ email: '' }, 400, MSG.email],
      [{ phone: '' }, 400, MSG.phone],
      [{ roles: ['superAdmin'] }, 400, `body.roles.0: ${USER_MSG.roleValue}`],
      [{ email: cast.otherAdmin.email }, 409, USER_MSG.emailTaken],
    ];
    for (const [body, status, msg] of cases) {
      const res = await t.call(usersEndpoints.update, { token: cast.admin.token, params: { id: cast.salesman.id }, body });
      expect([res.status, res.body.error?.msg]).toEqual([status, msg]);
    }
  });

  it("another tenant's user answers 404 to an Admin; PM, Salesman and no-tenant users get 403", async () => {
    const res = await t.call(usersEndpoints.update, {
      token: cast.admin.token,
      params: { id: cast.otherAdmin.id },
      body: { name: 'Hijacked' },
    });
    expect(res.status).toBe(404);
    const noTenant = await createUser(t, { tenant: null, roles: [] });
    for (const u of [cast.pm, cast.salesman, noTenant]) {
      expect((await t.call(usersEndpoints.update, { token: u.token, params: { id: cast.salesman.id }, body: { name: 'X' } })).status).toBe(
        403,
      );
    }
    const [row] = await t.database.db.select({ name: users.name }).from(users).where(eq(users.id, cast.otherAdmin.id));
    expect(row?.name).not.toBe('Hijacked');
  });
});

describe('last Admin of a tenant', () => {
  it('cannot lose the Admin role, be moved away or be deleted; with a second Admin it can', async () => {
    const tenant = await createTenant(t);
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const pm = await createUser(t, { tenant, roles: ['Project Manager'] });
    const elsewhere = await createTenant(t);
    const refused = [
      () => t.call(usersEndpoints.update, { token: admin.token, params: { id: admin.id }, body: { roles: ['Project Manager'] } }),
      () => t.call(usersEndpoints.update, { token: cast.superAdmin.token, params: { id: admin.id }, body: { roles: ['Salesman'] } }),
      () => t.call(usersEndpoints.update, { token: cast.superAdmin.token, params: { id: admin.id }, body: { tenantId: elsewhere.id } }),
      () => t.call(usersEndpoints.remove, { token: cast.superAdmin.token, params: { id: admin.id } }),
    ];
    for (const call of refused) {
      const res = await call();
      expect([res.status, res.body.error?.msg]).toEqual([400, USER_MSG.lastAdmin]);
    }
    // A deactivated Admin does not count.
    const former = await createUser(t, { tenant, roles: ['Admin'] });
    await t.call(usersEndpoints.remove, { token: admin.token, params: { id: former.id } });
    expect((await refused[0]()).status).toBe(400);

    await t.call(usersEndpoints.update, { token: admin.token, params: { id: pm.id }, body: { roles: ['Project Manager', 'Admin'] } });
    const demoted = await t.call(usersEndpoints.update, {
      token: admin.token,
      params: { id: admin.id },
      body: { roles: ['Project Manager'] },
    });
    expect(demoted.status).toBe(200);
    expect(demoted.body.data.roles).toEqual(['Project Manager']);
  });
});

describe('DELETE /users/:id', () => {
  it('deactivates the user: gone from lists, sessions ended, sign-in refused, row kept', async () => {
    const u = await createUser(t, { tenant: cast.tenant, roles: ['Salesman'] });
    const refreshToken = await signIn(u);
    const res = await t.call(usersEndpoints.remove, { token: cast.admin.token, params: { id: u.id } });
    expect(res.status).toBe(200);
    expect((await t.call(usersEndpoints.get, { token: cast.admin.token, params: { id: u.id } })).status).toBe(404);
    const list = await t.call(usersEndpoints.list, { token: cast.admin.token, query: { range: [0, 1000] } });
    expect(list.body.data.list.some((x) => x.id === u.id)).toBe(false);
    expect(await liveSessions(u.id)).toBe(0);
    expect((await t.call(authEndpoints.refresh, { body: { refreshToken } })).status).toBe(401);
    expect((await t.call(authEndpoints.login, { body: { email: u.email, password: u.password } })).status).toBe(401);
    const [row] = await t.database.db.select({ deactivatedAt: users.deactivatedAt }).from(users).where(eq(users.id, u.id));
    expect(row?.deactivatedAt).toEqual(t.clock.now());
    expect((await t.call(usersEndpoints.remove, { token: cast.admin.token, params: { id: u.id } })).status).toBe(404);
  });

  it('nobody deletes themselves', async () => {
    for (const u of [cast.admin, cast.superAdmin]) {
      const res = await t.call(usersEndpoints.remove, { token: u.token, params: { id: u.id } });
      expect([res.status, res.body.error?.msg]).toEqual([400, USER_MSG.deleteSelf]);
    }
  });

  it("another tenant's user answers 404 to an Admin; PM, Salesman and no-tenant users get 403; superAdmin may", async () => {
    expect((await t.call(usersEndpoints.remove, { token: cast.admin.token, params: { id: cast.otherAdmin.id } })).status).toBe(404);
    const noTenant = await createUser(t, { tenant: null, roles: [] });
    for (const u of [cast.pm, cast.salesman, noTenant]) {
      expect((await t.call(usersEndpoints.remove, { token: u.token, params: { id: cast.salesman.id } })).status).toBe(403);
    }
    const victim = await createUser(t, { tenant: cast.other, roles: ['Salesman'] });
    expect((await t.call(usersEndpoints.remove, { token: cast.superAdmin.token, params: { id: victim.id } })).status).toBe(200);
  });
});

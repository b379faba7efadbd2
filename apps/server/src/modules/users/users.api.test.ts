import { authEndpoints, MSG, USER_MSG, usersEndpoints } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { consumeOneTimeToken } from '../../security/one-time-tokens.repository.ts';
import { createCast, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

let n = 0;
const newUser = (over: Record<string, unknown> = {}) => ({
  name: 'Mary Ann Smith',
  email: `invitee${++n}@example.com`,
  phone: '555-0111',
  roles: ['Project Manager'],
  ...over,
});

describe('POST /users', () => {
  it('an Admin adds a user to its own tenant (a body tenantId is ignored) and an invitation is mailed', async () => {
    const body = newUser({ tenantId: cast.other.id, roles: ['Salesman', 'Project Manager', 'Salesman'] });
    const res = await t.call(usersEndpoints.create, { token: cast.admin.token, body });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      tenantId: cast.tenant.id,
      tenantName: cast.tenant.name,
      name: 'Mary Ann Smith',
      firstName: 'Mary',
      lastName: 'Ann Smith',
      email: body.email,
      roles: ['Salesman', 'Project Manager'],
      invited: true,
    });
    const mail = t.mailer.last(body.email);
    expect(mail.text).toContain(`${t.config.publicUrl}/auth/password-confirmation?token=`);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, res.body.data.id));
    expect(row?.passwordHash).toBeNull();
  });

  it('the invitation token is a working 72-hour invite token', async () => {
    const body = newUser();
    await t.call(usersEndpoints.create, { token: cast.admin.token, body });
    const token = t.mailer.tokenFor(body.email);
    const later = new Date(t.clock.now().getTime() + 71 * 3600_000);
    const used = await consumeOneTimeToken(t.database.db, token, ['invite'], later);
    expect(used?.purpose).toBe('invite');
    expect(await consumeOneTimeToken(t.database.db, token, ['invite'], later)).toBeNull();
  });

  it('the invited person chooses a password with the mailed link and signs in', async () => {
    const body = newUser({ roles: ['Admin'] });
    const created = await t.call(usersEndpoints.create, { token: cast.admin.token, body });
    const token = t.mailer.tokenFor(body.email);
    const confirm = await t.call(authEndpoints.passwordConfirmation, {
      body: { token, newPassword: 'a-long-new-password', confirmPassword: 'a-long-new-password' },
    });
    expect(confirm.status).toBe(200);
    const login = await t.call(authEndpoints.login, { body: { email: body.email, password: 'a-long-new-password' } });
    expect(login.status).toBe(200);
    expect(await t.deps.accessTokens.verify(login.body.data.accessToken)).toMatchObject({
      userId: created.body.data.id,
      tenantId: cast.tenant.id,
      roles: ['Admin'],
    });
    const after = await t.call(usersEndpoints.get, { token: cast.admin.token, params: { id: created.body.data.id } });
    expect(after.body.data.invited).toBe(false);
  });

  it('an invitation expires after 72 hours', async () => {
    const body = newUser();
    await t.call(usersEndpoints.create, { token: cast.admin.token, body });
    const token = t.mailer.tokenFor(body.email);
    expect(
      await consumeOneTimeToken(t.database.db, token, ['invite'], new Date(t.clock.now().getTime() + 72 * 3600_000 + 1000)),
    ).toBeNull();
  });

  it('a superAdmin picks the tenant; without one it answers "Please select a tenant"', async () => {
    const ok = await t.call(usersEndpoints.create, { token: cast.superAdmin.token, body: newUser({ tenantId: cast.other.id }) });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ tenantId: cast.other.id, tenantName: cast.other.name });
    for (const tenantId of [undefined, null, 999999]) {
      const res = await t.call(usersEndpoints.create, { token: cast.superAdmin.token, body: newUser({ tenantId }) });
      expect([res.status, res.body.error?.msg]).toEqual([400, MSG.selectTenant]);
    }
  });

  it.each([
    ['name', MSG.fullName],
    ['email', MSG.email],
    ['phone', MSG.phone],
    ['roles', MSG.roles],
  ])('answers the dialog message when %s is missing or blank', async (field, msg) => {
    const missing = newUser();
    delete (missing as Record<string, unknown>)[field];
    const blank = newUser({ [field]: field === 'roles' ? [] : '  ' });
    for (const body of [missing, blank]) {
      const res = await t.call(usersEndpoints.create, { token: cast.admin.token, body });
      expect([res.status, res.body.error?.msg]).toEqual([400, msg]);
    }
  });

  it('takes the name as firstName + lastName too, which win over name when both come (as on edit)', async () => {
    // Emails of letters only: the list test compares the database's email order with localeCompare.
    const split = newUser({ email: 'nameda@example.com', name: undefined, firstName: ' Grace ', lastName: 'Brewster Hopper' });
    const res = await t.call(usersEndpoints.create, { token: cast.admin.token, body: split });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Grace Brewster Hopper', firstName: 'Grace', lastName: 'Brewster Hopper' });

    const both = await t.call(usersEndpoints.create, {
      token: cast.admin.token,
      body: newUser({ email: 'namedb@example.com', name: 'Ignored Name', firstName: 'Ada', lastName: 'Lovelace' }),
    });
    expect(both.status).toBe(201);
    expect(both.body.data).toMatchObject({ name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace' });
    const firstOnly = await t.call(usersEndpoints.create, {
      token: cast.admin.token,
      body: newUser({ email: 'namedc@example.com', name: 'Mary Ann Smith', firstName: 'Maria' }),
    });
    expect(firstOnly.body.data).toMatchObject({ name: 'Maria Ann Smith', firstName: 'Maria', lastName: 'Ann Smith' });
    const noLast = await t.call(usersEndpoints.create, {
      token: cast.admin.token,
      body: newUser({ email: 'namedd@example.com', name: undefined, firstName: 'Cher', lastName: '' }),
    });
    expect(noLast.body.data).toMatchObject({ name: 'Cher', firstName: 'Cher', lastName: '' });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, both.body.data.id));
    expect(row?.name).toBe('Ada Lovelace');

    const none = await t.call(usersEndpoints.create, {
      token: cast.admin.token,
      body: newUser({ email: 'namede@example.com', name: undefined }),
    });
    expect([none.status, none.body.error?.msg]).toEqual([400, MSG.fullName]);
    const lastOnly = await t.call(usersEndpoints.create, {
      token: cast.admin.token,
      body: newUser({ email: 'namedf@example.com', name: undefined, lastName: 'Smith' }),
    });
    expect([lastOnly.status, lastOnly.body.error?.msg]).toEqual([400, MSG.firstName]);
    const emptyFirst = await t.call(usersEndpoints.create, {
      token: cast.admin.token,
      body: newUser({ email: 'namedg@example.com', name: undefined, firstName: ' ' }),
    });
    expect([emptyFirst.status, emptyFirst.body.error?.msg]).toEqual([400, MSG.firstName]);
  });

  it('refuses superAdmin and unknown roles, a malformed email and unknown keys', async () => {
    const roles = await t.call(usersEndpoints.create, {
      token: cast.superAdmin.token,
      body: newUser({ tenantId: cast.tenant.id, roles: ['superAdmin'] }),
    });
    expect([roles.status, roles.body.error?.msg]).toEqual([400, `body.roles.0: ${USER_MSG.roleValue}`]);
    const email = await t.call(usersEndpoints.create, { token: cast.admin.token, body: newUser({ email: 'not-an-address' }) });
    expect([email.status, email.body.error?.msg]).toEqual([400, `body.email: ${USER_MSG.emailFormat}`]);
    const extra = await t.call(usersEndpoints.create, { token: cast.admin.token, body: newUser({ password: 'x' }) });
    expect(extra.status).toBe(400);
  });

  it('a duplicate email (any case, any tenant) answers 409', async () => {
    for (const email of [cast.otherAdmin.email, cast.pm.email.toUpperCase()]) {
      const res = await t.call(usersEndpoints.create, { token: cast.admin.token, body: newUser({ email }) });
      expect([res.status, res.body.error?.msg]).toEqual([409, USER_MSG.emailTaken]);
    }
  });

  it('is refused to Project Manager, Salesman and a user with no tenant', async () => {
    const noTenant = await createUser(t, { tenant: null, roles: [] });
    for (const u of [cast.pm, cast.salesman, noTenant]) {
      expect((await t.call(usersEndpoints.create, { token: u.token, body: newUser() })).status).toBe(403);
    }
  });
});

describe('GET /users and /users/:id', () => {
  it('an Admin lists its own tenant only, with sort, range and a name/email filter', async () => {
    const res = await t.call(usersEndpoints.list, { token: cast.admin.token, query: { sort: ['email', 'ASC'], range: [0, 1000] } });
    expect(res.status).toBe(200);
    const list = res.body.data.list;
    expect(list.every((u) => u.tenantId === cast.tenant.id)).toBe(true);
    expect(list.map((u) => u.id)).toEqual(expect.arrayContaining([cast.admin.id, cast.pm.id, cast.salesman.id]));
    expect(list.map((u) => u.email)).toEqual([...list.map((u) => u.email)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(res.body.data.count).toBe(list.length);

    const page = await t.call(usersEndpoints.list, { token: cast.admin.token, query: { range: [1, 2] } });
    expect(page.body.data.list).toHaveLength(2);
    expect(page.body.data.count).toBe(list.length);

    const found = await t.call(usersEndpoints.list, { token: cast.admin.token, query: { filter: { q: cast.pm.email.toUpperCase() } } });
    expect(found.body.data.list.map((u) => u.id)).toEqual([cast.pm.id]);
    // An Admin's tenantId filter cannot reach another tenant.
    const sneaky = await t.call(usersEndpoints.list, { token: cast.admin.token, query: { filter: { tenantId: cast.other.id } } });
    expect(sneaky.body.data.list.every((u) => u.tenantId === cast.tenant.id)).toBe(true);
  });

  it('a superAdmin lists every tenant with tenant names, filters by tenant and sorts by tenant name', async () => {
    const all = await t.call(usersEndpoints.list, {
      token: cast.superAdmin.token,
      query: { sort: ['tenantName', 'DESC'], range: [0, 1000] },
    });
    const tenantIds = new Set(all.body.data.list.map((u) => u.tenantId));
    expect(tenantIds.has(cast.tenant.id) && tenantIds.has(cast.other.id)).toBe(true);
    const names = all.body.data.list.map((u) => u.tenantName);
    expect(names).toEqual([...names].sort().reverse());
    // Platform accounts are not tenant users.
    expect(all.body.data.list.some((u) => u.id === cast.superAdmin.id)).toBe(false);

    const other = await t.call(usersEndpoints.list, { token: cast.superAdmin.token, query: { filter: { tenantId: cast.other.id } } });
    expect(other.body.data.list.map((u) => u.id)).toContain(cast.otherAdmin.id);
    expect(other.body.data.list.every((u) => u.tenantId === cast.other.id && u.tenantName === cast.other.name)).toBe(true);
  });

  it('GET /users/:id splits the name and hides other tenants (404)', async () => {
    const res = await t.call(usersEndpoints.get, { token: cast.admin.token, params: { id: cast.pm.id } });
    expect(res.body.data).toMatchObject({
      id: cast.pm.id,
      firstName: cast.pm.name.split(' ')[0],
      lastName: cast.pm.name.split(' ').slice(1).join(' '),
      emailVerified: true,
      invited: false,
    });
    for (const id of [cast.otherAdmin.id, cast.superAdmin.id, 999999]) {
      expect((await t.call(usersEndpoints.get, { token: cast.admin.token, params: { id } })).status).toBe(404);
    }
    expect((await t.call(usersEndpoints.get, { token: cast.superAdmin.token, params: { id: cast.otherAdmin.id } })).status).toBe(200);
  });

  it('is refused to Project Manager, Salesman and a user with no tenant', async () => {
    const noTenant = await createUser(t, { tenant: null, roles: [] });
    for (const u of [cast.pm, cast.salesman, noTenant]) {
      expect((await t.call(usersEndpoints.list, { token: u.token })).status).toBe(403);
      expect((await t.call(usersEndpoints.get, { token: u.token, params: { id: cast.admin.id } })).status).toBe(403);
    }
  });
});

describe('POST /users/:id/invitation', () => {
  it('mails a new link to an invited user and the earlier link stops working', async () => {
    const body = newUser();
    const created = await t.call(usersEndpoints.create, { token: cast.admin.token, body });
    const first = t.mailer.tokenFor(body.email);
    const res = await t.call(usersEndpoints.resendInvitation, { token: cast.admin.token, params: { id: created.body.data.id }, body: {} });
    expect(res.status).toBe(200);
    const second = t.mailer.tokenFor(body.email);
    expect(second).not.toBe(first);
    expect(await consumeOneTimeToken(t.database.db, first, ['invite'], t.clock.now())).toBeNull();
    expect((await consumeOneTimeToken(t.database.db, second, ['invite'], t.clock.now()))?.userId).toBe(created.body.data.id);
  });

  it('refuses a user who already has a password (409), another tenant (404) and PM (403)', async () => {
    const active = await t.call(usersEndpoints.resendInvitation, { token: cast.admin.token, params: { id: cast.pm.id }, body: {} });
    expect([active.status, active.body.error?.msg]).toEqual([409, USER_MSG.alreadyActive]);
    expect(
      (await t.call(usersEndpoints.resendInvitation, { token: cast.admin.token, params: { id: cast.otherAdmin.id }, body: {} })).status,
    ).toBe(404);
    expect((await t.call(usersEndpoints.resendInvitation, { token: cast.pm.token, params: { id: cast.pm.id }, body: {} })).status).toBe(
      403,
    );
  });
});

import { AUTH_MSG, MSG, authEndpoints as ep } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { createTenant, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let seq = 0;
const signup = (over: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: `ada${++seq}@example.com`,
  phone: '555-0199',
  password: 'analytical-engine',
  ...over,
});

describe('POST /v0/auth/register', () => {
  it('creates a user with no tenant and no roles, answers 201, and mails a verification link', async () => {
    const body = signup();
    const res = await t.call(ep.register, { body });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email: body.email, msg: MSG.accountCreated });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, res.body.data.id));
    expect(row).toMatchObject({ name: 'Ada Lovelace', tenantId: null, roles: [], phone: '555-0199', emailVerifiedAt: null });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    const mail = t.mailer.last(body.email);
    expect(mail.subject).toContain('Vigil');
    expect(mail.text).toMatch(new RegExp(`^${t.config.publicUrl}/auth/verify-email\\?token=[A-Za-z0-9_-]+$`, 'm'));
    expect(mail.html).toContain('/auth/verify-email?token=');
  });

  it('combines firstName and lastName into the name, and lower-cases the email', async () => {
    const body = signup({ name: undefined, firstName: 'Grace', lastName: 'Brewster Hopper', email: `Grace${++seq}@Example.com` });
    const res = await t.call(ep.register, { body });
    expect(res.status).toBe(201);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, res.body.data.id));
    expect(row.name).toBe('Grace Brewster Hopper');
    expect(row.email).toBe(body.email.toLowerCase());
  });

  it('answers 409 with a clear message for an email already used (any case)', async () => {
    const body = signup();
    expect((await t.call(ep.register, { body })).status).toBe(201);
    const again = await t.call(ep.register, { body: { ...body, email: body.email.toUpperCase() } });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: 'CONFLICT', msg: AUTH_MSG.emailInUse });
  });

  it.each([
    ['no name parts', { name: undefined }, MSG.firstName],
    ['a blank first name', { name: undefined, firstName: '  ', lastName: 'L' }, MSG.firstName],
    ['no last name', { name: undefined, firstName: 'F' }, MSG.lastName],
    ['a missing email', { email: undefined }, MSG.email],
    ['a blank email', { email: ' ' }, MSG.email],
    ['an email without @', { email: 'not-an-email' }, AUTH_MSG.emailInvalid],
    ['a missing phone', { phone: undefined }, MSG.phone],
    ['a number as phone', { phone: 5550100 }, MSG.phone],
    ['a missing password', { password: undefined }, MSG.password],
    ['a blank password', { password: '' }, MSG.password],
    ['a short password', { password: 'short12' }, AUTH_MSG.passwordTooShort],
    ['a too long password', { password: 'x'.repeat(129) }, AUTH_MSG.passwordTooLong],
    ['a common password', { password: 'QwertyUIOP' }, AUTH_MSG.passwordCommon],
    ['a common password (digits)', { password: '12345678' }, AUTH_MSG.passwordCommon],
    ['a confirmation that differs', { confirmPassword: 'something-else' }, MSG.passwordsMatchSignup],
  ])('answers 400 for %s', async (_what, over, msg) => {
    const res = await t.call(ep.register, { body: signup(over) });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'VALIDATION_FAILED', msg });
  });

  it('accepts a matching confirmation and rejects unknown keys', async () => {
    const ok = signup({ confirmPassword: 'analytical-engine' });
    expect((await t.call(ep.register, { body: ok })).status).toBe(201);
    const extra = await t.call(ep.register, { body: signup({ roles: ['superAdmin'] }) });
    expect(extra.status).toBe(400);
  });
});

describe('POST /v0/auth/login', () => {
  it('answers both tokens, sets the httpOnly refresh cookie, and the access token carries the claims', async () => {
    const tenant = await createTenant(t, { name: 'Acme Security' });
    const user = await createUser(t, { tenant, roles: ['Project Manager'], name: 'Pat Manager' });
    const res = await t.call(ep.login, { body: { email: user.email.toUpperCase(), password: user.password } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['accessToken', 'refreshToken']);
    expect(res.body.data.refreshToken.length).toBeGreaterThanOrEqual(22);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`vigil_refresh=${res.body.data.refreshToken}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/v0\/auth/);
    expect(cookie).not.toMatch(/Secure/); // PUBLIC_URL is http in tests
    expect(await t.deps.accessTokens.verify(res.body.data.accessToken)).toEqual({
      userId: user.id,
      userName: 'Pat Manager',
      tenantId: tenant.id,
      tenantName: 'Acme Security',
      roles: ['Project Manager'],
      sv: 0,
      sid: expect.any(String) as unknown,
    });
  });

  it('gives a signed-up user without tenant the claims tenantId -1 and no roles', async () => {
    const body = signup();
    await t.call(ep.register, { body });
    const res = await t.call(ep.login, { body: { email: body.email, password: body.password } });
    expect(res.status).toBe(200);
    expect(await t.deps.accessTokens.verify(res.body.data.accessToken)).toMatchObject({ tenantId: -1, tenantName: '', roles: [] });
  });

  it('answers the same generic 401 for an unknown email, a wrong password, a deactivated user, a deleted tenant and an invited user', async () => {
    const tenant = await createTenant(t);
    const wrong = await createUser(t, { tenant, roles: ['Admin'] });
    const deactivated = await createUser(t, { tenant, roles: ['Admin'] });
    await t.database.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, deactivated.id));
    const gone = await createTenant(t, { deletedAt: t.clock.now() });
    const goneUser = await createUser(t, { tenant: gone, roles: ['Admin'] });
    const invited = await createUser(t, { tenant, roles: ['Salesman'] });
    await t.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, invited.id));
    const attempts = [
      { email: 'nobody@example.com', password: 'whatever-it-is' },
      { email: wrong.email, password: 'not-the-password' },
      { email: deactivated.email, password: deactivated.password },
      { email: goneUser.email, password: goneUser.password },
      { email: invited.email, password: invited.password },
    ];
    for (const body of attempts) {
      const res = await t.call(ep.login, { body });
      expect(res.status, body.email).toBe(401);
      expect(res.body.error).toEqual({ code: 'UNAUTHORIZED', msg: MSG.invalidCredentials });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it.each([
    [{ password: 'x' }, MSG.email],
    [{ email: '', password: 'x' }, MSG.email],
    [{ email: 'a@b.c' }, MSG.password],
    [{ email: 'a@b.c', password: '' }, MSG.password],
  ])('answers 400 with the product message for %j', async (body, msg) => {
    const res = await t.call(ep.login, { body });
    expect(res.status).toBe(400);
    expect(res.body.error?.msg).toBe(msg);
  });
});

describe('GET and PATCH /v0/auth/me', () => {
  it('answers the profile with the name split into first and last name', async () => {
    const tenant = await createTenant(t, { name: 'Profile Co', timezone: 'America/Chicago' });
    const user = await createUser(t, { tenant, roles: ['Admin'], name: 'Mary Ann Evans' });
    const res = await t.call(ep.me, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: user.id,
      name: 'Mary Ann Evans',
      firstName: 'Mary',
      lastName: 'Ann Evans',
      email: user.email,
      phone: '555-0101',
      roles: ['Admin'],
      tenantId: tenant.id,
      tenantName: 'Profile Co',
      tenantTimezone: 'America/Chicago',
      emailVerified: true,
    });
  });

  it('needs a token', async () => {
    const res = await t.call(ep.me);
    expect(res.status).toBe(401);
    expect(res.body.error?.msg).toBe('Unauthorized. Please login again.');
  });

  it('updates the name by parts or whole, and the phone', async () => {
    const user = await createUser(t, { tenant: null, roles: [], name: 'Old Name' });
    const byParts = await t.call(ep.updateMe, { token: user.token, body: { lastName: 'Surname Two', phone: '555-7777' } });
    expect(byParts.status).toBe(200);
    expect(byParts.body.data).toMatchObject({
      name: 'Old Surname Two',
      firstName: 'Old',
      lastName: 'Surname Two',
      phone: '555-7777',
      tenantId: -1,
      tenantName: '',
      tenantTimezone: 'UTC',
    });
    const whole = await t.call(ep.updateMe, { token: user.token, body: { name: '  Brand   New  ' } });
    expect(whole.body.data).toMatchObject({ name: 'Brand New', firstName: 'Brand', lastName: 'New' });
  });

  it.each([
    [{ firstName: ' ' }, MSG.firstName],
    [{ lastName: '' }, MSG.lastName],
    [{ name: '' }, MSG.fullName],
    [{ phone: '' }, MSG.phone],
  ])('answers 400 with the product message for %j', async (body, msg) => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const res = await t.call(ep.updateMe, { token: user.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error?.msg).toBe(msg);
  });

  it('rejects email or roles changes (unknown keys)', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    expect((await t.call(ep.updateMe, { token: user.token, body: { roles: ['superAdmin'] } })).status).toBe(400);
    expect((await t.call(ep.updateMe, { token: user.token, body: { email: 'x@y.z' } })).status).toBe(400);
  });

  it('answers 401 to a still-valid access token of a deactivated user', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    await t.database.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, user.id));
    expect((await t.call(ep.me, { token: user.token })).status).toBe(401);
  });
});

import { AUTH_MSG, MSG, authEndpoints as ep } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, tenants, users } from '../../db/schema/index.ts';
import { createTenant, createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { issueTokens, revokeUserSessions } from './sessions.ts';
import { REFRESH_REUSE_GRACE_MS } from './sign-in.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function signIn(user: TestUser) {
  const res = await t.call(ep.login, { body: { email: user.email, password: user.password } });
  expect(res.status).toBe(200);
  return res.body.data;
}

const refreshWith = (refreshToken: string) => t.call(ep.refresh, { body: { refreshToken } });
const cookieHeader = (token: string) => ({ cookie: `vigil_refresh=${token}` });

async function newUser() {
  const tenant = await createTenant(t);
  return createUser(t, { tenant, roles: ['Admin'] });
}

describe('access tokens', () => {
  it('work on /v0/auth/me for 15 minutes, then answer 401', async () => {
    const user = await newUser();
    const { accessToken } = await signIn(user);
    t.clock.advance(14 * MINUTE);
    expect((await t.call(ep.me, { token: accessToken })).status).toBe(200);
    t.clock.advance(MINUTE + 1000);
    const expired = await t.call(ep.me, { token: accessToken });
    expect(expired.status).toBe(401);
    expect(expired.body.error?.code).toBe('UNAUTHORIZED');
  });
});

describe('POST /v0/auth/refresh', () => {
  it('rotates: new pair, the old token used up, the new one works', async () => {
    const user = await newUser();
    const first = await signIn(user);
    t.clock.advance(20 * MINUTE);
    const res = await refreshWith(first.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body.data.refreshToken).not.toBe(first.refreshToken);
    expect(String(res.headers['set-cookie'])).toContain(`vigil_refresh=${res.body.data.refreshToken}`);
    expect((await t.call(ep.me, { token: res.body.data.accessToken })).status).toBe(200);
    const rows = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.familyId)).size).toBe(1);
    expect(rows.filter((r) => r.usedAt !== null)).toHaveLength(1);
    // Only hashes are stored.
    expect(rows.map((r) => r.tokenHash)).not.toContain(first.refreshToken);
    t.clock.advance(MINUTE);
    expect((await refreshWith(res.body.data.refreshToken)).status).toBe(200);
  });

  it('reads the token from the cookie when the body has none', async () => {
    const user = await newUser();
    const { refreshToken } = await signIn(user);
    const res = await t.call(ep.refresh, { headers: cookieHeader(refreshToken) });
    expect(res.status).toBe(200);
    const withEmptyBody = await t.call(ep.refresh, { body: {}, headers: cookieHeader(res.body.data.refreshToken) });
    expect(withEmptyBody.status).toBe(200);
  });

  it('answers 401 without any token, or with an unknown one', async () => {
    expect((await t.call(ep.refresh, { body: {} })).status).toBe(401);
    const unknown = await refreshWith('not-a-token-we-issued');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error?.msg).toBe('Unauthorized. Please login again.');
  });

  it('revokes the whole family when a rotated token is used again after the grace', async () => {
    const user = await newUser();
    const first = await signIn(user);
    const second = (await refreshWith(first.refreshToken)).body.data;
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    const replay = await refreshWith(first.refreshToken);
    expect(replay.status).toBe(401);
    // The legitimate holder's newer token dies with the family.
    expect((await refreshWith(second.refreshToken)).status).toBe(401);
    const rows = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
  });

  it('continues the family for a second refresh of the same token within the grace (two tabs)', async () => {
    const user = await newUser();
    const first = await signIn(user);
    const [a, b] = await Promise.all([refreshWith(first.refreshToken), refreshWith(first.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    t.clock.advance(REFRESH_REUSE_GRACE_MS - 1000);
    const c = await refreshWith(first.refreshToken);
    expect(c.status).toBe(200);
    for (const pair of [a.body.data, b.body.data, c.body.data]) expect((await refreshWith(pair.refreshToken)).status).toBe(200);
  });

  it('answers 401 for a token older than 30 days', async () => {
    const user = await newUser();
    const { refreshToken } = await signIn(user);
    t.clock.advance(30 * DAY + 1000);
    expect((await refreshWith(refreshToken)).status).toBe(401);
  });

  it('refuses a deactivated user and a deleted tenant, and ends their sessions', async () => {
    const user = await newUser();
    const { refreshToken } = await signIn(user);
    await t.database.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, user.id));
    expect((await refreshWith(refreshToken)).status).toBe(401);
    await t.database.db.update(users).set({ deactivatedAt: null }).where(eq(users.id, user.id));
    expect((await refreshWith(refreshToken)).status).toBe(401);

    const other = await newUser();
    const otherTokens = await signIn(other);
    await t.database.db.update(tenants).set({ deletedAt: t.clock.now() }).where(eq(tenants.id, other.tenantId));
    expect((await refreshWith(otherTokens.refreshToken)).status).toBe(401);
  });

  it("carries the user's current roles and tenant", async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const { refreshToken } = await signIn(user);
    const tenant = await createTenant(t, { name: 'Joined Later' });
    await t.database.db
      .update(users)
      .set({ tenantId: tenant.id, roles: ['Admin'] })
      .where(eq(users.id, user.id));
    const res = await refreshWith(refreshToken);
    expect(await t.deps.accessTokens.verify(res.body.data.accessToken)).toMatchObject({
      tenantId: tenant.id,
      tenantName: 'Joined Later',
      roles: ['Admin'],
    });
  });
});

describe('POST /v0/auth/logout', () => {
  it('revokes the family, clears the cookie, and is fine when already logged out', async () => {
    const user = await newUser();
    const first = await signIn(user);
    const second = (await refreshWith(first.refreshToken)).body.data;
    const res = await t.call(ep.logout, { body: { refreshToken: second.refreshToken }, token: second.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ok: true } });
    expect(String(res.headers['set-cookie'])).toMatch(/vigil_refresh=;.*Path=\/v0\/auth/);
    expect((await refreshWith(second.refreshToken)).status).toBe(401);
    expect((await t.call(ep.logout, { body: { refreshToken: second.refreshToken } })).status).toBe(200);
    expect((await t.call(ep.logout, { body: {} })).status).toBe(200);
    expect((await t.call(ep.logout)).status).toBe(200);
  });

  it('takes the cookie and leaves other sign-ins alone', async () => {
    const user = await newUser();
    const laptop = await signIn(user);
    const phone = await signIn(user);
    expect((await t.call(ep.logout, { headers: cookieHeader(laptop.refreshToken) })).status).toBe(200);
    expect((await refreshWith(laptop.refreshToken)).status).toBe(401);
    expect((await refreshWith(phone.refreshToken)).status).toBe(200);
  });
});

describe('POST /v0/auth/changePassword', () => {
  const change = (user: TestUser, token: string, over: Record<string, unknown> = {}) =>
    t.call(ep.changePassword, {
      token,
      body: {
        email: user.email,
        currentPassword: user.password,
        newPassword: 'a-brand-new-secret',
        confirmPassword: 'a-brand-new-secret',
        ...over,
      },
    });

  it('changes the password, revokes every session, and keeps this caller signed in', async () => {
    const user = await newUser();
    const elsewhere = await signIn(user);
    const here = await signIn(user);
    const res = await change(user, here.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.data.msg).toBe(MSG.passwordUpdated);
    expect(String(res.headers['set-cookie'])).toContain(`vigil_refresh=${res.body.data.refreshToken}`);
    expect((await refreshWith(elsewhere.refreshToken)).status).toBe(401);
    expect((await refreshWith(here.refreshToken)).status).toBe(401);
    expect((await refreshWith(res.body.data.refreshToken)).status).toBe(200);
    expect((await t.call(ep.login, { body: { email: user.email, password: user.password } })).status).toBe(401);
    expect((await t.call(ep.login, { body: { email: user.email, password: 'a-brand-new-secret' } })).status).toBe(200);
  });

  it.each([
    ['a wrong current password', { currentPassword: 'not-it-at-all' }, AUTH_MSG.currentPasswordIncorrect],
    ['a confirmation that differs', { confirmPassword: 'another-secret' }, MSG.passwordsMatch],
    ['a blank new password', { newPassword: '', confirmPassword: '' }, MSG.required],
    ['a blank confirmation', { confirmPassword: '' }, MSG.required],
    ['a blank current password', { currentPassword: '' }, MSG.required],
    ['a missing current password', { currentPassword: undefined }, MSG.required],
    ['a short new password', { newPassword: 'short', confirmPassword: 'short' }, AUTH_MSG.passwordTooShort],
    ['a common new password', { newPassword: 'password123', confirmPassword: 'password123' }, AUTH_MSG.passwordCommon],
    ["someone else's email", { email: 'someone@example.com' }, AUTH_MSG.emailNotYours],
  ])('answers 400 for %s', async (_what, over, msg) => {
    const user = await newUser();
    const res = await change(user, user.token, over);
    expect(res.status).toBe(400);
    expect(res.body.error?.msg).toBe(msg);
  });

  it('needs a token', async () => {
    const user = await newUser();
    const res = await t.call(ep.changePassword, {
      body: { email: user.email, currentPassword: user.password, newPassword: 'a-brand-new-secret', confirmPassword: 'a-brand-new-secret' },
    });
    expect(res.status).toBe(401);
  });
});

describe('POST /v0/auth/account-delete', () => {
  it('checks the password, deactivates the caller and ends its sessions', async () => {
    const user = await newUser();
    const session = await signIn(user);
    const wrong = await t.call(ep.accountDelete, { token: session.accessToken, body: { password: 'not-the-password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.msg).toBe(AUTH_MSG.passwordIncorrect);
    const res = await t.call(ep.accountDelete, { token: session.accessToken, body: { password: user.password } });
    expect(res.status).toBe(200);
    expect(res.body.data.ok).toBe(true);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.deactivatedAt).not.toBeNull();
    expect((await refreshWith(session.refreshToken)).status).toBe(401);
    expect((await t.call(ep.login, { body: { email: user.email, password: user.password } })).status).toBe(401);
  });

  it('answers the product message for a missing password', async () => {
    const user = await newUser();
    const res = await t.call(ep.accountDelete, { token: user.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error?.msg).toBe(MSG.password);
  });
});

describe('sessions.ts (used by other modules)', () => {
  it('issueTokens starts a family with current claims; revokeUserSessions ends them all', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const pair = await issueTokens(t.deps, user.id);
    expect(await t.deps.accessTokens.verify(pair.accessToken)).toMatchObject({ userId: user.id, tenantId: -1, tenantName: '', roles: [] });
    const other = await issueTokens(t.deps, user.id);
    await t.database.db.transaction((tx) => revokeUserSessions(t.deps.bus, tx, user.id, t.clock.now()));
    expect((await refreshWith(pair.refreshToken)).status).toBe(401);
    expect((await refreshWith(other.refreshToken)).status).toBe(401);
  });
});

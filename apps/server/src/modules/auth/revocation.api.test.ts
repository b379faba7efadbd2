import {
  LIVE_EVENTS_STREAM_PATH,
  authEndpoints as auth,
  liveEventsEndpoints,
  portalEndpoints,
  tenantsEndpoints,
  usersEndpoints,
} from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTenants, inScope } from '../../db/scope.ts';
import { createOneTimeToken } from '../../security/one-time-tokens.repository.ts';
import { createCast, createPortal, createUser, type TestPortal, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/**
 * When access ends (docs/auth.md): every revocation cause refuses the access tokens issued before
 * it within 5 seconds, like an expired token, on reads, writes and stream tickets; what it does
 * not end keeps working. On PGlite and PostgreSQL (the event that drops the cached session state
 * travels by NOTIFY there).
 */
let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => t.close());

/** The answer of a token that is not (or no longer) valid, e.g. an expired one: the one to match. */
let refusal: { status: number; body: unknown };
beforeAll(async () => {
  const res = await t.call(auth.me, { token: 'not-a-token' });
  refusal = { status: res.status, body: res.body };
  expect(refusal.status).toBe(401);
});

const answer = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

const deadline = () => Date.now() + 5_000;

/** Waits (up to 5 s) until `probe` answers 401; returns the answer. Waits on state, not a fixed time. */
async function refusedSoon(probe: () => Promise<{ status: number; body: unknown }>) {
  const until = deadline();
  for (;;) {
    const res = await probe();
    if (res.status === 401 || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A session as the web app has it: signed in with the password. */
async function signIn(user: TestUser): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await t.call(auth.login, { body: { email: user.email, password: user.password } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The revoked token is refused on a read with secrets, a write and the stream ticket, like an expired one. */
async function expectRefused(token: string, portal: TestPortal) {
  const read = await refusedSoon(() => t.call(portalEndpoints.get, { token, params: { id: portal.id } }));
  expect(answer(read)).toEqual(refusal);
  expect(answer(await t.call(portalEndpoints.rotateSecret, { token, params: { id: portal.id }, body: {} }))).toEqual(refusal);
  expect(answer(await t.call(liveEventsEndpoints.ticket, { token, body: {} }))).toEqual(refusal);
  expect(answer(await t.call(auth.me, { token }))).toEqual(refusal);
}

async function expectAllowed(token: string, portal: TestPortal) {
  expect((await t.call(portalEndpoints.get, { token, params: { id: portal.id } })).status).toBe(200);
  expect((await t.call(liveEventsEndpoints.ticket, { token, body: {} })).status).toBe(200);
}

async function world() {
  const cast = await createCast(t);
  const portal = await createPortal(t, cast.tenant);
  return { ...cast, portal };
}

describe('access ends within seconds', () => {
  it('when the Admin deletes (deactivates) a Project Manager', async () => {
    const w = await world();
    const session = await signIn(w.pm);
    await expectAllowed(w.pm.token, w.portal);
    expect((await t.call(usersEndpoints.remove, { token: w.admin.token, params: { id: w.pm.id } })).status).toBe(200);
    await expectRefused(w.pm.token, w.portal);
    await expectRefused(session.accessToken, w.portal);
    await expectAllowed(w.admin.token, w.portal);
  });

  it('when a user deletes its own account', async () => {
    const w = await world();
    const session = await signIn(w.pm);
    expect((await t.call(auth.accountDelete, { token: session.accessToken, body: { password: w.pm.password } })).status).toBe(200);
    await expectRefused(session.accessToken, w.portal);
  });

  it('when a session logs out: that session only', async () => {
    const w = await world();
    const leaving = await signIn(w.pm);
    const staying = await signIn(w.pm);
    expect((await t.call(auth.logout, { token: leaving.accessToken, body: { refreshToken: leaving.refreshToken } })).status).toBe(200);
    await expectRefused(leaving.accessToken, w.portal);
    await expectAllowed(staying.accessToken, w.portal);
    await expectAllowed(w.pm.token, w.portal);
  });

  it('when the password changes: every other session ends, the one that changed it goes on with fresh tokens', async () => {
    const w = await world();
    const changing = await signIn(w.pm);
    const other = await signIn(w.pm);
    const res = await t.call(auth.changePassword, {
      token: changing.accessToken,
      body: {
        email: w.pm.email,
        currentPassword: w.pm.password,
        newPassword: 'a-new-long-password-1',
        confirmPassword: 'a-new-long-password-1',
      },
    });
    expect(res.status).toBe(200);
    const fresh = res.body.data;
    await expectRefused(other.accessToken, w.portal);
    await expectRefused(w.pm.token, w.portal);
    expect((await t.call(auth.refresh, { body: { refreshToken: other.refreshToken } })).status).toBe(401);
    // The caller's session continues with the tokens the answer carried.
    await expectAllowed(fresh.accessToken, w.portal);
    const refreshed = await t.call(auth.refresh, { body: { refreshToken: fresh.refreshToken } });
    expect(refreshed.status).toBe(200);
    await expectAllowed(refreshed.body.data.accessToken, w.portal);
    // Its access token from before the change is of the old version.
    await expectRefused(changing.accessToken, w.portal);
  });

  it('when the password is reset from a mailed link', async () => {
    const w = await world();
    const session = await signIn(w.pm);
    const token = await inScope(t.database.db, allTenants, (tx) => createOneTimeToken(tx, w.pm.id, 'reset', t.clock.now()));
    const res = await t.call(auth.passwordConfirmation, {
      body: { token, newPassword: 'a-reset-long-password-2', confirmPassword: 'a-reset-long-password-2' },
    });
    expect(res.status).toBe(200);
    await expectRefused(session.accessToken, w.portal);
    await expectRefused(w.pm.token, w.portal);
  });

  it('when the superAdmin deletes the tenant: all of its users', async () => {
    const w = await world();
    const session = await signIn(w.admin);
    expect((await t.call(tenantsEndpoints.remove, { token: w.superAdmin.token, params: { id: w.tenant.id } })).status).toBe(200);
    await expectRefused(session.accessToken, w.portal);
    await expectRefused(w.pm.token, w.portal);
    await expectRefused(w.salesman.token, w.portal);
    // Another tenant's users keep their access.
    const foreign = await createPortal(t, w.other);
    await expectAllowed(w.otherAdmin.token, foreign);
  });

  it("when the Admin changes a user's role", async () => {
    const w = await world();
    const session = await signIn(w.pm);
    const res = await t.call(usersEndpoints.update, { token: w.admin.token, params: { id: w.pm.id }, body: { roles: ['Salesman'] } });
    expect(res.status).toBe(200);
    await expectRefused(session.accessToken, w.portal);
    await expectRefused(w.pm.token, w.portal);
    // A new sign-in carries the new role.
    const again = await signIn(w.pm);
    expect((await t.call(auth.me, { token: again.accessToken })).body.data.roles).toEqual(['Salesman']);
  });

  it('a change that is no revocation (name, phone) leaves the tokens valid', async () => {
    const w = await world();
    const res = await t.call(usersEndpoints.update, { token: w.admin.token, params: { id: w.pm.id }, body: { phone: '555-0199' } });
    expect(res.status).toBe(200);
    await expectAllowed(w.pm.token, w.portal);
  });
});

describe('live-event streams of an ended session', () => {
  const streamUrl = (ticket: string) => `${baseUrl}${LIVE_EVENTS_STREAM_PATH}?ticket=${encodeURIComponent(ticket)}`;
  const ticketOf = async (token: string) => {
    const res = await t.call(liveEventsEndpoints.ticket, { token, body: {} });
    expect(res.status).toBe(200);
    return res.body.data.ticket;
  };

  it('a ticket asked for before the session ended opens nothing', async () => {
    const w = await world();
    const session = await signIn(w.pm);
    const ticket = await ticketOf(session.accessToken);
    expect((await t.call(auth.logout, { token: session.accessToken, body: { refreshToken: session.refreshToken } })).status).toBe(200);
    await refusedSoon(() => t.call(auth.me, { token: session.accessToken }));
    const res = await fetch(streamUrl(ticket));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(refusal.body);
  });

  it('an open stream ends when its session does; another session of the user keeps its stream', async () => {
    const w = await world();
    const leaving = await signIn(w.pm);
    const staying = await signIn(w.pm);
    const ended = await fetch(streamUrl(await ticketOf(leaving.accessToken)));
    const kept = await fetch(streamUrl(await ticketOf(staying.accessToken)));
    expect([ended.status, kept.status]).toEqual([200, 200]);
    const keptReader = kept.body!.getReader();
    const endedReader = ended.body!.getReader();
    const drained = (async () => {
      for (;;) if ((await endedReader.read()).done) return 'ended';
    })();
    expect((await t.call(auth.logout, { token: leaving.accessToken, body: { refreshToken: leaving.refreshToken } })).status).toBe(200);
    const outcome = await Promise.race([drained, new Promise((r) => setTimeout(() => r('still open'), 5_000))]);
    expect(outcome).toBe('ended');
    // The other session's stream is still open: a read is pending, not done.
    const pending = await Promise.race([
      keptReader.read().then((r) => (r.done ? 'ended' : 'data')),
      new Promise((r) => setTimeout(() => r('open'), 300)),
    ]);
    expect(pending).not.toBe('ended');
    await keptReader.cancel();
  });

  it('the stream of a deactivated user ends', async () => {
    const w = await world();
    const res = await fetch(streamUrl(await ticketOf(w.pm.token)));
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const drained = (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })();
    expect((await t.call(usersEndpoints.remove, { token: w.admin.token, params: { id: w.pm.id } })).status).toBe(200);
    expect(await Promise.race([drained, new Promise((r) => setTimeout(() => r('still open'), 5_000))])).toBe('ended');
  });
});

describe('tokens the factories sign (no sv, no sid)', () => {
  it('count as session version 0: valid until the first revocation', async () => {
    const w = await world();
    const user = await createUser(t, { tenant: w.tenant, roles: ['Admin'] });
    await expectAllowed(user.token, w.portal);
  });
});

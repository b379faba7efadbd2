import { AUTH_MSG, MSG, authEndpoints as ep } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../db/schema/index.ts';
import { createMailer } from '../../mail/mailer.ts';
import { createOneTimeToken } from '../../security/one-time-tokens.repository.ts';
import { createTenant, createUser } from '../../../test/factories.ts';
import { sharedDatabase } from '../../../test/database.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { linkToken, startSmtpSink } from '../../../test/kits/auth/smtp-sink.test-support.ts';

/** Mail goes over real SMTP to a local server; the tests follow the links found in what it received. */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  smtp = await startSmtpSink();
  const database = await sharedDatabase();
  const mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <no-reply@vigil.test>', database, log: pino({ level: 'silent' }) });
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://vigil.example.com' }, overrides: { mailer } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const HOUR = 3600_000;
let seq = 0;
const email = () => `mail${++seq}@example.com`;

describe('email verification over SMTP', () => {
  it('mails a verification link on sign-up that verifies the email once', async () => {
    const address = email();
    const res = await t.call(ep.register, {
      body: { name: 'Mail Tester', email: address, phone: '555-0100', password: 'correct horse battery' },
    });
    expect(res.status).toBe(201);
    const mail = await smtp.waitFor(address);
    expect(mail.from).toBe('no-reply@vigil.test');
    expect(mail.decoded).toMatch(/^Subject: .*Vigil/m);
    expect(mail.decoded).toContain('Content-Type: text/html');
    const token = linkToken(mail, 'https://vigil.example.com', 'verify-email');
    const [outbox] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, address));
    expect(outbox.transport).toBe('smtp');

    const login = await t.call(ep.login, { body: { email: address, password: 'correct horse battery' } });
    expect((await t.call(ep.me, { token: login.body.data.accessToken })).body.data.emailVerified).toBe(false);
    const verified = await t.call(ep.verifyEmail, { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toEqual({ ok: true, msg: AUTH_MSG.emailVerified });
    expect((await t.call(ep.me, { token: login.body.data.accessToken })).body.data.emailVerified).toBe(true);

    const again = await t.call(ep.verifyEmail, { body: { token } });
    expect(again.status).toBe(400);
    expect(again.body.error?.msg).toBe(AUTH_MSG.verifyLinkInvalid);
  });

  it('expires the verification link after 24 hours', async () => {
    const address = email();
    await t.call(ep.register, { body: { name: 'Late Reader', email: address, phone: '555-0100', password: 'correct horse battery' } });
    const token = linkToken(await smtp.waitFor(address), 'https://vigil.example.com', 'verify-email');
    t.clock.advance(24 * HOUR + 1000);
    expect((await t.call(ep.verifyEmail, { body: { token } })).status).toBe(400);
  });

  it('rejects an unknown or blank token', async () => {
    expect((await t.call(ep.verifyEmail, { body: { token: 'nope' } })).body.error?.msg).toBe(AUTH_MSG.verifyLinkInvalid);
    expect((await t.call(ep.verifyEmail, { body: { token: '' } })).status).toBe(400);
  });
});

describe('password reset over SMTP', () => {
  it('mails a single-use link that sets the password, verifies the email and ends every session', async () => {
    const tenant = await createTenant(t);
    const user = await createUser(t, { tenant, roles: ['Salesman'] });
    await t.database.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, user.id));
    const old = await t.call(ep.login, { body: { email: user.email, password: user.password } });
    const before = smtp.received.length;

    const asked = await t.call(ep.passwordReset, { body: { email: user.email.toUpperCase() } });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toEqual({ ok: true, msg: AUTH_MSG.resetSent });
    const token = linkToken(await smtp.waitFor(user.email, before), 'https://vigil.example.com', 'password-confirmation');

    const done = await t.call(ep.passwordConfirmation, {
      body: { token, newPassword: 'fresh-password-1', confirmPassword: 'fresh-password-1' },
    });
    expect(done.status).toBe(200);
    expect(done.body.data.msg).toBe(MSG.passwordUpdated);
    expect((await t.call(ep.refresh, { body: { refreshToken: old.body.data.refreshToken } })).status).toBe(401);
    expect((await t.call(ep.login, { body: { email: user.email, password: user.password } })).status).toBe(401);
    const fresh = await t.call(ep.login, { body: { email: user.email, password: 'fresh-password-1' } });
    expect(fresh.status).toBe(200);
    expect((await t.call(ep.me, { token: fresh.body.data.accessToken })).body.data.emailVerified).toBe(true);

    const reused = await t.call(ep.passwordConfirmation, { body: { token, newPassword: 'another-password-2' } });
    expect(reused.status).toBe(400);
    expect(reused.body.error?.msg).toBe(AUTH_MSG.resetLinkInvalid);
  });

  it('answers the same for unknown and deactivated accounts, and mails nothing', async () => {
    const tenant = await createTenant(t);
    const gone = await createUser(t, { tenant, roles: ['Admin'] });
    await t.database.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, gone.id));
    const before = smtp.received.length;
    const unknown = await t.call(ep.passwordReset, { body: { email: 'nobody-here@example.com' } });
    const deactivated = await t.call(ep.passwordReset, { body: { email: gone.email } });
    expect(unknown.status).toBe(200);
    expect(deactivated.body).toEqual(unknown.body);
    // A reset for a real account goes out after these; nothing else may have arrived before it.
    const marker = await createUser(t, { tenant, roles: ['Admin'] });
    await t.call(ep.passwordReset, { body: { email: marker.email } });
    await smtp.waitFor(marker.email, before);
    expect(smtp.received.slice(before).flatMap((m) => m.to)).toEqual([marker.email]);
  });

  it('expires the reset link after 1 hour', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const before = smtp.received.length;
    await t.call(ep.passwordReset, { body: { email: user.email } });
    const token = linkToken(await smtp.waitFor(user.email, before), 'https://vigil.example.com', 'password-confirmation');
    t.clock.advance(HOUR + 1000);
    expect((await t.call(ep.passwordConfirmation, { body: { token, newPassword: 'fresh-password-1' } })).status).toBe(400);
  });

  it('keeps the token usable when the new password is refused', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const before = smtp.received.length;
    await t.call(ep.passwordReset, { body: { email: user.email } });
    const token = linkToken(await smtp.waitFor(user.email, before), 'https://vigil.example.com', 'password-confirmation');
    const cases: [Record<string, string>, string][] = [
      [{ newPassword: 'short' }, AUTH_MSG.passwordTooShort],
      [{ newPassword: 'iloveyou' }, AUTH_MSG.passwordCommon],
      [{ newPassword: 'fresh-password-1', confirmPassword: 'fresh-password-2' }, MSG.passwordsMatch],
      [{ newPassword: '' }, MSG.password],
    ];
    for (const [over, msg] of cases) {
      const res = await t.call(ep.passwordConfirmation, { body: { token, ...over } });
      expect(res.status).toBe(400);
      expect(res.body.error?.msg).toBe(msg);
    }
    expect((await t.call(ep.passwordConfirmation, { body: { token, newPassword: 'fresh-password-1' } })).status).toBe(200);
  });
});

describe('invitations through /v0/auth/password-confirmation', () => {
  it('lets an invited user (no password yet) choose one and sign in', async () => {
    const tenant = await createTenant(t, { name: 'Inviting Co' });
    const invited = await createUser(t, { tenant, roles: ['Project Manager'] });
    await t.database.db.update(users).set({ passwordHash: null, emailVerifiedAt: null }).where(eq(users.id, invited.id));
    const token = await createOneTimeToken(t.database.db, invited.id, 'invite', t.clock.now());
    expect((await t.call(ep.login, { body: { email: invited.email, password: 'chosen-password-1' } })).status).toBe(401);

    t.clock.advance(71 * HOUR);
    const res = await t.call(ep.passwordConfirmation, {
      body: { token, newPassword: 'chosen-password-1', confirmPassword: 'chosen-password-1' },
    });
    expect(res.status).toBe(200);
    const login = await t.call(ep.login, { body: { email: invited.email, password: 'chosen-password-1' } });
    expect(login.status).toBe(200);
    expect(await t.deps.accessTokens.verify(login.body.data.accessToken)).toMatchObject({
      tenantName: 'Inviting Co',
      roles: ['Project Manager'],
    });
    expect((await t.call(ep.passwordConfirmation, { body: { token, newPassword: 'chosen-password-2' } })).status).toBe(400);
  });

  it('expires invitations after 72 hours and refuses verification tokens', async () => {
    const invited = await createUser(t, { tenant: null, roles: [] });
    const invite = await createOneTimeToken(t.database.db, invited.id, 'invite', t.clock.now());
    const verify = await createOneTimeToken(t.database.db, invited.id, 'verify', t.clock.now());
    expect((await t.call(ep.passwordConfirmation, { body: { token: verify, newPassword: 'chosen-password-1' } })).status).toBe(400);
    t.clock.advance(72 * HOUR + 1000);
    const res = await t.call(ep.passwordConfirmation, { body: { token: invite, newPassword: 'chosen-password-1' } });
    expect(res.status).toBe(400);
    expect(res.body.error?.msg).toBe(AUTH_MSG.resetLinkInvalid);
  });

  it('refuses an invitation of a user deactivated since', async () => {
    const invited = await createUser(t, { tenant: null, roles: [] });
    const token = await createOneTimeToken(t.database.db, invited.id, 'invite', t.clock.now());
    await t.database.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, invited.id));
    expect((await t.call(ep.passwordConfirmation, { body: { token, newPassword: 'chosen-password-1' } })).status).toBe(400);
  });
});

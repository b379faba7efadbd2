import { AUTH_MSG, MSG, authEndpoints as ep, type ErrorBody } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { ACCOUNT_RULE, IP_RULE, MAX_DELAY_MS, delayAfter, waitText } from './throttle.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/v0/auth/login', payload: { email, password }, remoteAddress: ip });

describe('delays', () => {
  it('grow from the 5th account failure (1 s, 2 s, 4 s, ...) up to 15 minutes', () => {
    expect([1, 4].map((n) => delayAfter(n, ACCOUNT_RULE))).toEqual([0, 0]);
    expect([5, 6, 7, 10].map((n) => delayAfter(n, ACCOUNT_RULE))).toEqual([1000, 2000, 4000, 32_000]);
    expect(delayAfter(40, ACCOUNT_RULE)).toBe(MAX_DELAY_MS);
    expect(delayAfter(19, IP_RULE)).toBe(0);
    expect(delayAfter(20, IP_RULE)).toBe(1000);
    expect([waitText(1), waitText(32_000), waitText(119_000), waitText(119_500), waitText(MAX_DELAY_MS)]).toEqual([
      '1 second',
      '32 seconds',
      '119 seconds',
      '2 minutes',
      '15 minutes',
    ]);
  });
});

describe('login throttling', () => {
  it('blocks an account after repeated failures with a clear 429 and Retry-After, then lets the right password in after the delay', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    for (let i = 1; i <= 4; i++) expect((await login(user.email, `wrong-${i}`)).statusCode).toBe(401);
    expect((await login(user.email, 'wrong-5')).statusCode).toBe(401); // 5th failure: blocked for 1 s

    const blocked = await login(user.email, user.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorBody>().error).toEqual({ code: 'RATE_LIMITED', msg: AUTH_MSG.tooManyAttempts('1 second') });
    expect(blocked.headers['retry-after']).toBe('1');

    t.clock.advance(1000);
    expect((await login(user.email, 'wrong-6')).statusCode).toBe(401); // 6th: 2 s
    t.clock.advance(1000);
    const still = await login(user.email, user.password);
    expect(still.statusCode).toBe(429);
    expect(still.json<ErrorBody>().error.msg).toBe('Too many sign-in attempts. Try again in 1 second.');
    t.clock.advance(1000);
    expect((await login(user.email, 'wrong-7')).statusCode).toBe(401); // 7th: 4 s
    const fourSeconds = await login(user.email, user.password);
    expect(fourSeconds.json<ErrorBody>().error.msg).toBe('Too many sign-in attempts. Try again in 4 seconds.');
    expect(fourSeconds.headers['retry-after']).toBe('4');

    t.clock.advance(4000);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
    // Success forgot the account's failures: one more mistake is not blocked.
    expect((await login(user.email, 'wrong-again')).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('never locks out for more than 15 minutes', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    for (let i = 1; i <= 25; i++) {
      await login(user.email, `wrong-${i}`, `10.0.${i}.1`);
      t.clock.advance(MAX_DELAY_MS);
    }
    expect((await login(user.email, 'wrong-26', '10.9.9.9')).statusCode).toBe(401);
    const blocked = await login(user.email, user.password, '10.9.9.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorBody>().error.msg).toBe('Too many sign-in attempts. Try again in 15 minutes.');
    expect(blocked.headers['retry-after']).toBe(String(MAX_DELAY_MS / 1000));
    t.clock.advance(MAX_DELAY_MS);
    expect((await login(user.email, user.password, '10.9.9.9')).statusCode).toBe(200);
  });

  it('counts unknown emails too, and throttles an IP that guesses across many accounts', async () => {
    const ip = '192.0.2.44';
    for (let i = 1; i <= 20; i++) expect((await login(`ghost${i}@example.com`, 'guess-guess', ip)).statusCode).toBe(401);
    const user = await createUser(t, { tenant: null, roles: [] });
    const blocked = await login(user.email, user.password, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorBody>().error.code).toBe('RATE_LIMITED');
    // The account itself is fine from elsewhere.
    expect((await login(user.email, user.password, '198.51.100.7')).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
  });

  it('forgets old failures after a quiet hour', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    for (let i = 1; i <= 4; i++) await login(user.email, `wrong-${i}`, '203.0.113.5');
    t.clock.advance(61 * 60_000);
    expect((await login(user.email, 'wrong-5', '203.0.113.5')).statusCode).toBe(401);
    const res = await login(user.email, user.password, '203.0.113.5');
    expect(res.statusCode).toBe(200);
  });

  it('counts wrong current passwords of changePassword on the same account', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    for (let i = 1; i <= 5; i++) {
      const res = await t.call(ep.changePassword, {
        token: user.token,
        body: {
          email: user.email,
          currentPassword: `wrong-${i}`,
          newPassword: 'a-brand-new-secret',
          confirmPassword: 'a-brand-new-secret',
        },
      });
      expect(res.status).toBe(400);
    }
    const blocked = await login(user.email, user.password, '203.0.113.77');
    expect(blocked.statusCode).toBe(429);
    t.clock.advance(1000);
    const ok = await login(user.email, user.password, '203.0.113.77');
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ data: { accessToken: string } }>().data.accessToken).toBeTruthy();
    expect(MSG.invalidCredentials).toBe('Invalid email or password.');
  });
});

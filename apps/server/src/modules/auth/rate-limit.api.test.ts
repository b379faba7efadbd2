import type { ErrorBody } from '@vigil/contracts';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { login, refresh } from './sign-in.service.ts';

/** This file turns the global limiter on (other tests run without it). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { rateLimit: { max: 1000, timeWindow: 60_000 } } });
});
afterAll(() => t.close());

const post = (url: string, payload: object, ip: string) => t.app.inject({ method: 'POST', url, payload, remoteAddress: ip });

describe('per-route rate limit of the unauthenticated auth calls', () => {
  it.each([
    ['/v0/auth/login', { email: 'a@example.com', password: '' }],
    ['/v0/auth/register', { email: '' }],
    ['/v0/auth/refresh', {}],
    ['/v0/auth/password-reset', { email: '' }],
  ])('allows 30 calls a minute per IP on %s, then answers 429', async (url, payload) => {
    const ip = `198.18.0.${Math.floor(Math.random() * 250) + 1}`;
    for (let i = 0; i < 30; i++) expect((await post(url, payload, ip)).statusCode).not.toBe(429);
    const limited = await post(url, payload, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json<ErrorBody>().error.code).toBe('RATE_LIMITED');
    expect(limited.json<ErrorBody>().error.msg).toMatch(/^Too many requests. Try again in \d+ seconds.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await post(url, payload, '198.19.0.1')).statusCode).not.toBe(429);
  });
});

describe('sign-in logging', () => {
  it('records sign-ins, failures and refusals with the user id, never a password or token', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    const deps = { ...t.deps, log };
    const user = await createUser(t, { tenant: null, roles: [] });
    await expect(login(deps, { email: user.email, password: 'wrong-password-x', ip: '127.0.0.1' })).rejects.toThrow();
    const tokens = await login(deps, { email: user.email, password: user.password, ip: '127.0.0.1' });
    await refresh(deps, tokens.refreshToken);
    t.clock.advance(60_000);
    await expect(refresh(deps, tokens.refreshToken)).rejects.toThrow();

    const records = lines.map((l) => JSON.parse(l) as { msg: string; userId?: number });
    expect(records.map((r) => [r.msg, r.userId])).toEqual([
      ['sign-in failed', user.id],
      ['sign-in', user.id],
      ['refresh refused', user.id],
    ]);
    const all = lines.join('\n');
    for (const secret of [user.password, 'wrong-password-x', tokens.refreshToken, tokens.accessToken]) expect(all).not.toContain(secret);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/**
 * TRUST_PROXY decides which address the throttles count: behind a proxy, the client's address from
 * X-Forwarded-For (req.ip); without it, the socket's, whatever a client writes in the header.
 */
const PROXY = '10.0.0.2';
const from = (t: TestApp, xff: string) => (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, payload, remoteAddress: PROXY, headers: { 'x-forwarded-for': xff } });

/** 20 failed sign-ins on unknown accounts: the IP rule's threshold (throttle.ts), so that address is blocked. */
async function guessFrom(t: TestApp, xff: string) {
  for (let i = 1; i <= 20; i++) {
    const res = await from(t, xff)('POST', '/v0/auth/login', { email: `ghost${i}-${xff}@example.com`, password: 'guess-guess' });
    expect(res.statusCode).toBe(401);
  }
}

describe('with TRUST_PROXY=1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1' }, overrides: { rateLimit: { max: 3, timeWindow: 60_000 } } });
  });
  afterAll(() => t.close());

  it('throttles failed sign-ins per client behind the proxy: one client guessing does not lock out another', async () => {
    await guessFrom(t, '203.0.113.1');
    const user = await createUser(t, { tenant: null, roles: [] });
    const login = { email: user.email, password: user.password };
    expect((await from(t, '203.0.113.1')('POST', '/v0/auth/login', login)).statusCode).toBe(429);
    expect((await from(t, '203.0.113.2')('POST', '/v0/auth/login', login)).statusCode).toBe(200);
  });

  it('rate-limits requests per client behind the proxy', async () => {
    for (let i = 0; i < 3; i++) expect((await from(t, '198.51.100.1')('GET', '/healthz')).statusCode).toBe(200);
    expect((await from(t, '198.51.100.1')('GET', '/healthz')).statusCode).toBe(429);
    expect((await from(t, '198.51.100.2')('GET', '/healthz')).statusCode).toBe(200);
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ overrides: { rateLimit: { max: 3, timeWindow: 60_000 } } });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: a spoofed header does not escape the sign-in throttle', async () => {
    await guessFrom(t, '203.0.113.1');
    const user = await createUser(t, { tenant: null, roles: [] });
    const res = await from(t, '203.0.113.99')('POST', '/v0/auth/login', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(429);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('RATE_LIMITED');
  });

  it('ignores X-Forwarded-For in the rate limit', async () => {
    for (let i = 0; i < 3; i++) expect((await from(t, `198.51.100.${i + 1}`)('GET', '/healthz')).statusCode).toBe(200);
    expect((await from(t, '198.51.100.9')('GET', '/healthz')).statusCode).toBe(429);
  });
});

import { healthEndpoints, type ErrorBody } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('server core', () => {
  it('answers health and readiness', async () => {
    expect((await t.call(healthEndpoints.healthz)).body).toEqual({ status: 'ok' });
    const ready = await t.call(healthEndpoints.readyz);
    expect(ready.status).toBe(200);
    expect(ready.body.database).toBe(process.env.VIGIL_TEST_DB === 'postgres' ? 'postgres' : 'pglite');
    expect(ready.body.checks).toEqual({ database: 'ok', events: 'ok' });
  });

  it('answers unknown API routes with a JSON 404 in the error model', async () => {
    for (const url of ['/v0/api/nothing-here', '/v0/nope', '/v0']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', msg: 'Resource not found.' } });
    }
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v0/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; info: { title: string }; paths: Record<string, { get?: unknown }> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Vigil API');
    expect(doc.paths['/readyz'].get).toBeDefined();
  });

  it('sets security headers and a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // helmet's headers on answers of every kind, the same as on a 200.
    const helmets = [
      'content-security-policy',
      'strict-transport-security',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'x-content-type-options',
    ];
    for (const other of [
      await t.app.inject({ method: 'GET', url: '/v0/api/nowhere' }),
      await t.app.inject({ method: 'GET', url: '/v0/api/devices' }),
    ]) {
      expect(other.statusCode).toBeGreaterThanOrEqual(400);
      for (const name of helmets) expect(other.headers[name], name).toBe(res.headers[name]);
    }
    for (const name of helmets) expect(res.headers[name], name).toBeTruthy();
  });

  it('rejects malformed JSON and oversized bodies with 4xx, never 5xx', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().error.code).toBe('VALIDATION_FAILED');
    const big = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(big.statusCode).toBe(413);
  });
});

describe('HTTP edge cases', () => {
  it('treats an empty JSON body as no body (the route schema decides)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/logout',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers the global rate limit with 429, its own message and Retry-After', async () => {
    const limited = await createTestApp({ overrides: { rateLimit: { max: 2, timeWindow: 60_000 } } });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await limited.app.inject({ method: 'GET', url: '/healthz' }));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
      const last = answers[2];
      expect(last.json<ErrorBody>().error).toEqual({
        code: 'RATE_LIMITED',
        msg: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/) as unknown,
      });
      expect(last.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});

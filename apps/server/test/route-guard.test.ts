import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../src/http/permissions.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * Routes mounted outside route(), each with the reason. Everything else under /v0
 * must come from the contracts with schemas and a permission rule.
 */
const EXEMPT = new Map<string, string>([
  ['GET /v0/openapi.json', 'the generated document itself'],
  [
    'GET /v0/api/live-events/stream',
    'Server-Sent Events (text/event-stream, not JSON); authenticated by a single-use ticket from POST /v0/api/live-events/ticket because an EventSource cannot send a bearer token',
  ],
]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('route table guard', () => {
  it('every /v0 route is registered through route() with a permission rule', () => {
    const apiRoutes = t.deps.mounted.filter((r) => r.url.startsWith('/v0') && r.method !== 'HEAD');
    const registered = new Set(t.deps.routes.map((r) => `${r.method} ${r.path}`));
    const bypassed = apiRoutes.map((r) => `${r.method} ${r.url}`).filter((key) => !registered.has(key) && !EXEMPT.has(key));
    expect(bypassed).toEqual([]);
  });

  it('every registered route has a response schema, a known permission and request schemas for its inputs', () => {
    const known = new Set(['public', 'self', 'onboarding', ...Object.keys(PERMISSIONS)]);
    for (const r of t.deps.routes) {
      const where = `${r.method} ${r.path}`;
      expect(r.endpoint.response, where).toBeDefined();
      expect(known.has(r.permission), `${where} permission ${r.permission}`).toBe(true);
      if (r.path.includes(':')) expect(r.endpoint.params, `${where} params schema`).toBeDefined();
      if (['POST', 'PATCH', 'PUT'].includes(r.method) && !r.path.startsWith('/v0/webhooks')) {
        expect(r.endpoint.body, `${where} body schema`).toBeDefined();
      }
    }
  });

  it('every /v0/api route requires a signed-in user', () => {
    const open = t.deps.routes.filter((r) => r.path.startsWith('/v0/api') && r.permission === 'public');
    expect(open.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});

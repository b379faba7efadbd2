import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../src/http/permissions.ts';
import type { RegisteredRoute } from '../src/http/route.ts';
import { STATUS_MESSAGES } from '@vigil/contracts';
import {
  BAD_AUTH,
  BAD_PARAMS,
  BAD_QUERIES,
  BAD_VALUES,
  CONTENT_TYPES,
  EXTRA_KEYS,
  nonCanonicalIds,
  NUL_TEXTS,
  pick,
  RAW_BODIES,
  seededRandom,
} from './bad-inputs.ts';
import { createUser, type TestUser } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';
import {
  exampleBody,
  exampleQuery,
  idParamNames,
  isActingUserParam,
  NO_BODY,
  paramKind,
  paramNames,
  routeKey,
  schemaKeys,
} from './route-inputs.ts';
import { buildWorld, type World } from './world.ts';

/**
 * Bad-input sweep over every route of the table (docs/testing-guards.md: "0 5xx over
 * hundreds of generated bad inputs per route"). Each route gets SAMPLES_PER_ROUTE
 * requests drawn by a seeded PRNG from generated bad path parameters, query
 * strings, bodies, content types and authorization headers, sent with a valid
 * token of a role allowed on the route; every answer must be below 500.
 */

const SAMPLES_PER_ROUTE = 200;
/** Routes whose accepted input costs a password hash or a rendered report: fewer samples keep the file near a minute. */
const COSTLY =
  /^POST \/v0\/auth\/(register|login|changePassword|password-confirmation|account-delete)$|export\.pdf$|^GET \/v0\/api\/reports\/:id$/;
const COSTLY_SAMPLES = 100;
/** Requests in flight at once: password hashing runs off the main thread, so a few overlap usefully. */
const CONCURRENCY = 4;
const SEED = 20261122;
/** A valid id that names nothing: destructive routes are swept against it, so the sweep deletes nothing real. */
const NOTHING = 2147483000;

let t: TestApp;
let world: World;
/** A throwaway user of tenant A for the 'self' routes (password change, account deletion, profile). */
let selfUser: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t);
  selfUser = await createUser(t, {
    tenant: { id: world.a.id, name: world.a.name },
    roles: ['Salesman'],
    name: 'Alpha Sweeper',
    email: 'sweeper@alpha.test',
  });
}, 120_000);
afterAll(() => t.close());

/** A caller allowed on the route: the tenant roles first (deepest paths), the superAdmin for platform routes. */
function callerFor(route: RegisteredRoute): TestUser | undefined {
  if (route.permission === 'public') return undefined;
  if (route.permission === 'self') return routeKey(route) === 'POST /v0/api/tenants' ? world.superAdmin : selfUser;
  if (route.permission === 'onboarding') return world.a.users.Admin;
  const roles: readonly string[] = PERMISSIONS[route.permission];
  const role = (['Admin', 'Project Manager', 'Salesman'] as const).find((r) => roles.includes(r));
  return role ? world.a.users[role] : world.superAdmin;
}

/** Valid path values: A's objects (a user other than the caller), or NOTHING for DELETE. */
function validParams(route: RegisteredRoute, caller: TestUser | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of paramNames(route.path)) {
    if (route.path.startsWith('/v0/webhooks/') || route.path.startsWith('/sandbox')) values[name] = String(world.a.ids.portal[0]);
    else if (route.method === 'DELETE') values[name] = String(NOTHING);
    else if (isActingUserParam(name)) values[name] = String(caller?.id ?? NOTHING);
    else {
      const kind = paramKind(route.path, name);
      const ids = world.a.ids[kind];
      values[name] = String(kind === 'user' ? ids[ids.length - 1] : ids[0]);
    }
  }
  return values;
}

interface Sample {
  url: string;
  headers: Record<string, string>;
  payload?: string;
  what: string;
}

const encodeSegment = (v: string) => (v.startsWith('%') ? v : encodeURIComponent(v));
const encodeQuery = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

/** One generated request: a single input made bad at a time, the rest valid. */
function generate(route: RegisteredRoute, caller: TestUser | undefined, random: () => number): Sample {
  const params = validParams(route, caller);
  const baseQuery = Object.entries(exampleQuery(route, world.a) ?? {}).map(([k, v]) => [k, String(v)] as [string, string]);
  const example = exampleBody(route, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Number(v)])), world.a);
  const validBody = example === NO_BODY ? undefined : example;
  const hasBody = ['POST', 'PATCH', 'PUT'].includes(route.method);
  const names = paramNames(route.path);
  const takesBody = hasBody && (route.endpoint.body !== undefined || route.path.startsWith('/v0/webhooks/'));
  // Weighted towards the inputs the route reads; the others are still tried now and then.
  const axes = [
    ...(names.length ? ['param', 'param', 'param'] : []),
    ...(route.endpoint.query ? ['query', 'query', 'query'] : ['query']),
    ...(takesBody ? ['body', 'body', 'body', 'body', 'raw', 'type'] : ['raw']),
    ...(route.permission === 'public' ? [] : ['auth']),
  ];
  const axis = pick(random, axes);
  // An input the route does not read changes nothing: aim it at an id that names nothing, so the
  // sample costs a 404 rather than a full report or PDF.
  const ignored = (axis === 'query' && !route.endpoint.query) || (axis === 'raw' && !takesBody);
  if (ignored) for (const name of names) if (!route.path.startsWith('/v0/webhooks/')) params[name] = String(NOTHING);
  let query = baseQuery;
  let payload = validBody === undefined ? undefined : JSON.stringify(validBody);
  const headers: Record<string, string> = caller ? { authorization: `Bearer ${caller.token}` } : {};
  let what: string;
  if (axis === 'param') {
    const name = pick(random, names);
    params[name] = pick(random, BAD_PARAMS);
    what = `:${name}=${params[name].slice(0, 60)}`;
  } else if (axis === 'query') {
    const bad = pick(random, BAD_QUERIES);
    const keys = new Set(bad.map(([k]) => k));
    query = [...baseQuery.filter(([k]) => !keys.has(k)), ...bad];
    what = `?${encodeQuery(bad).slice(0, 120)}`;
  } else if (axis === 'body') {
    const body = mutateBody(route, validBody, random);
    payload = body.text;
    what = `body ${body.what}`;
  } else if (axis === 'raw') {
    payload = pick(random, RAW_BODIES);
    what = `raw body ${JSON.stringify(payload.slice(0, 60))}${payload.length > 60 ? `... (${payload.length} chars)` : ''}`;
  } else if (axis === 'type') {
    headers['content-type'] = pick(random, CONTENT_TYPES);
    what = `content-type ${JSON.stringify(headers['content-type'])}`;
  } else {
    headers.authorization = pick(random, BAD_AUTH);
    what = `authorization ${headers.authorization.slice(0, 40)}`;
  }
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  if (headers['content-type'] === '') delete headers['content-type'];
  let url = route.path.replace(/:([A-Za-z]+)/g, (_, n: string) => encodeSegment(params[n]));
  if (query.length) url += `?${encodeQuery(query)}`;
  if (route.path.startsWith('/v0/webhooks/portals/') && payload !== undefined && axis !== 'auth') Object.assign(headers, signed(payload));
  return { url, headers, payload, what };
}

/** Signs a body with portal A1's secret, so the webhook's own validation (after the signature) is reached. */
function signed(body: string): Record<string, string> {
  const id = `msg_${randomUUID()}`;
  const at = t.clock.now();
  const secret = world.a.webhookSecrets.get(world.a.ids.portal[0])!;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

/** A valid body with one change: a field removed, a field set to a bad value, a key added, or the whole reshaped. */
function mutateBody(route: RegisteredRoute, valid: unknown, random: () => number): { text: string; what: string } {
  const base = valid && typeof valid === 'object' && !Array.isArray(valid) ? (valid as Record<string, unknown>) : {};
  const keys = [...new Set([...Object.keys(base), ...schemaKeys(route.endpoint.body)])];
  const kind = pick(random, keys.length ? ['remove', 'set', 'set', 'set', 'extra', 'reshape'] : ['extra', 'reshape']);
  if (kind === 'remove') {
    const key = pick(random, keys);
    const { [key]: _dropped, ...rest } = base;
    return { text: JSON.stringify(rest), what: `without ${key}` };
  }
  if (kind === 'set') {
    const key = pick(random, keys);
    const value = pick(random, BAD_VALUES);
    return { text: JSON.stringify({ ...base, [key]: value }), what: `${key}=${JSON.stringify(value)?.slice(0, 60)}` };
  }
  if (kind === 'extra') {
    const key = pick(random, EXTRA_KEYS);
    const value = pick(random, BAD_VALUES);
    return { text: JSON.stringify({ ...base, [key]: value }), what: `extra ${key.slice(0, 20)}=${JSON.stringify(value)?.slice(0, 40)}` };
  }
  const shapes: [string, unknown][] = [
    ['[body]', [base]],
    ['{data: body}', { data: base }],
    ['null', null],
    ['{}', {}],
    ['every field null', Object.fromEntries(keys.map((k) => [k, null]))],
  ];
  const [what, value] = pick(random, shapes);
  return { text: JSON.stringify(value), what };
}

describe('bad-input sweep', () => {
  it('no route answers 5xx to generated bad input', { timeout: 240_000 }, async () => {
    const random = seededRandom(SEED);
    const routes = t.deps.routes;
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const started = Date.now();
    const timings: [string, number][] = [];
    for (const route of routes) {
      const routeStarted = Date.now();
      const caller = callerFor(route);
      const budget = COSTLY.test(routeKey(route)) ? COSTLY_SAMPLES : SAMPLES_PER_ROUTE;
      const samples = new Map<string, Sample>();
      for (let i = 0; i < budget * 3 && samples.size < budget; i++) {
        const sample = generate(route, caller, random);
        samples.set(
          `${sample.url} ${JSON.stringify(sample.headers['content-type'])} ${sample.headers.authorization?.length} ${sample.payload}`,
          sample,
        );
      }
      const queue = [...samples.values()];
      const worker = async () => {
        for (let sample = queue.shift(); sample; sample = queue.shift()) {
          const res = await t.app.inject({
            method: route.method,
            url: sample.url,
            headers: sample.headers,
            ...(sample.payload !== undefined && { payload: sample.payload }),
          });
          sent++;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode >= 500) failures.push(`${routeKey(route)} ${sample.what} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      timings.push([routeKey(route), Date.now() - routeStarted]);
    }
    const slowest = timings
      .sort(([, a], [, b]) => b - a)
      .slice(0, 8)
      .map(([r, ms]) => `${r} ${ms} ms`)
      .join(', ');
    console.log(`slowest routes: ${slowest}`);
    const histogram = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    console.log(`bad-input sweep: ${routes.length} routes, ${sent} requests in ${Date.now() - started} ms; statuses ${histogram}`);
    expect(failures).toEqual([]);
    expect(statuses.get(400) ?? 0, 'most bad input must be refused as 400').toBeGreaterThan(sent / 4);
    // No body above may have polluted the server's prototypes.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('x');
  });

  /**
   * A NUL character in any text that reaches SQL (a search filter, a name, a comment)
   * must be refused as 400 like any other bad text, not fail in PostgreSQL as a 500.
   */
  it('text holding a NUL character is refused, not a 500', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const route of t.deps.routes.filter((r) => !r.path.startsWith('/v0/webhooks/'))) {
      const caller = callerFor(route);
      const params = validParams(route, caller);
      const numeric = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Number(v)]));
      const headers: Record<string, string> = caller ? { authorization: `Bearer ${caller.token}` } : {};
      const url = route.path.replace(/:([A-Za-z]+)/g, (_, n: string) => encodeURIComponent(params[n]));
      const requests: { what: string; query?: string; body?: string }[] = [];
      const baseQuery = Object.entries(exampleQuery(route, world.a) ?? {}).map(([k, v]) => [k, String(v)] as [string, string]);
      for (const key of ['q', 'name', 'tenantName']) {
        const filter = JSON.stringify({ [key]: 'x' });
        if (!route.endpoint.query?.safeParse({ ...Object.fromEntries(baseQuery), filter }).success) continue;
        for (const text of NUL_TEXTS)
          requests.push({
            what: `filter.${key}=${JSON.stringify(text)}`,
            query: encodeQuery([...baseQuery, ['filter', JSON.stringify({ [key]: text })]]),
          });
      }
      const example = ['POST', 'PATCH', 'PUT'].includes(route.method) ? exampleBody(route, numeric, world.a) : NO_BODY;
      if (example !== NO_BODY) {
        const base = example && typeof example === 'object' ? (example as Record<string, unknown>) : {};
        // The example's text fields, and the optional fields it leaves out (a number field just answers 400).
        const keys = [
          ...Object.keys(base).filter((k) => typeof base[k] === 'string'),
          ...schemaKeys(route.endpoint.body).filter((k) => !(k in base)),
        ];
        for (const key of keys) {
          for (const text of NUL_TEXTS)
            requests.push({ what: `body.${key}=${JSON.stringify(text)}`, body: JSON.stringify({ ...base, [key]: text }) });
        }
      }
      for (const r of requests) {
        const res = await t.app.inject({
          method: route.method,
          url: r.query ? `${url}?${r.query}` : url,
          headers: { ...headers, ...(r.body !== undefined && { 'content-type': 'application/json' }) },
          ...(r.body !== undefined && { payload: r.body }),
        });
        sent++;
        if (res.statusCode >= 500) failures.push(`${routeKey(route)} ${r.what} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    console.log(`NUL sweep: ${sent} requests, ${failures.length} answered 5xx`);
    expect(failures).toEqual([]);
  });

  /** Pages and streams mounted outside route() (sandbox checkout, OpenAPI, live stream) get the same treatment. */
  it('routes outside the table never answer 5xx to bad input', async () => {
    const registered = new Set(t.deps.routes.map((r) => routeKey(r)));
    const outside = t.deps.mounted.filter(
      (r) => r.method !== 'HEAD' && /^\/(v0|sandbox)\//.test(r.url) && !registered.has(`${r.method} ${r.url}`),
    );
    const random = seededRandom(SEED + 1);
    const failures: string[] = [];
    let sent = 0;
    for (const r of outside) {
      for (let i = 0; i < 60; i++) {
        // Only bad values: a real checkout session would be paid, a real ticket would open a stream.
        const url = r.url.replace(/:([A-Za-z]+)/g, () => encodeSegment(pick(random, BAD_PARAMS)));
        const query = encodeQuery(pick(random, BAD_QUERIES));
        const payload = r.method === 'POST' ? pick(random, RAW_BODIES) : undefined;
        const type = pick(random, ['application/x-www-form-urlencoded', 'application/json', ...CONTENT_TYPES]);
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: `${url}?${query}`,
          headers: { 'content-type': type, authorization: `Bearer ${world.a.users.Admin.token}` },
          ...(payload !== undefined && { payload }),
        });
        sent++;
        if (res.statusCode >= 500)
          failures.push(
            `${r.method} ${r.url} url=${url.slice(0, 80)}?${query.slice(0, 80)} -> ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
      }
    }
    console.log(`outside-table sweep: ${outside.map((r) => `${r.method} ${r.url}`).join(', ')} -> ${sent} requests`);
    expect(outside.length).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });

  /**
   * Ids in paths are canonical decimals (docs/decisions.md 18): any other writing of an id names nothing and
   * answers the ordinary 404, never a 400 or, through a lenient parse, the row it would read as. Sent
   * with real ids of tenant A (also to DELETE routes: a lenient parse would delete them, and fail here).
   */
  it('every id in a path answers 404 to any form but the canonical decimal', async () => {
    const failures: string[] = [];
    let sent = 0;
    const routes = t.deps.routes.filter((r) => idParamNames(r).length > 0);
    for (const route of routes) {
      const caller = callerFor(route);
      const params: Record<string, string> = {};
      for (const name of paramNames(route.path)) {
        const ids = world.a.ids[paramKind(route.path, name)];
        params[name] = String(
          isActingUserParam(name) ? (caller?.id ?? ids[0]) : paramKind(route.path, name) === 'user' ? ids[ids.length - 1] : ids[0],
        );
      }
      const numeric = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Number(v)]));
      const example = ['POST', 'PATCH', 'PUT'].includes(route.method) ? exampleBody(route, numeric, world.a) : NO_BODY;
      const query = Object.entries(exampleQuery(route, world.a) ?? {}).map(([k, v]) => [k, String(v)] as [string, string]);
      for (const name of idParamNames(route)) {
        for (const form of nonCanonicalIds(Number(params[name]))) {
          const url =
            route.path.replace(/:([A-Za-z]+)/g, (_, n: string) => (n === name ? form : params[n])) +
            (query.length ? `?${encodeQuery(query)}` : '');
          const res = await t.app.inject({
            method: route.method,
            url,
            headers: {
              ...(caller && { authorization: `Bearer ${caller.token}` }),
              ...(example !== NO_BODY && { 'content-type': 'application/json' }),
            },
            ...(example !== NO_BODY && { payload: JSON.stringify(example) }),
          });
          sent++;
          const body: unknown = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
          if (
            res.statusCode !== 404 ||
            JSON.stringify(body) !== JSON.stringify({ error: { code: 'NOT_FOUND', msg: STATUS_MESSAGES[404] } })
          ) {
            failures.push(`${routeKey(route)} :${name}=${form} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
        }
      }
    }
    console.log(`non-canonical id sweep: ${routes.length} routes, ${sent} requests`);
    expect(routes.length).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });
});

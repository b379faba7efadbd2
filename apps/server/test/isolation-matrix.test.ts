import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../src/http/permissions.ts';
import type { RegisteredRoute } from '../src/http/route.ts';
import { createTestApp, type TestApp } from './harness.ts';
import {
  answerKind,
  exampleBody,
  exampleQuery,
  ID_KEY_KIND,
  isActingUserParam,
  OBJECT_KEY_KIND,
  NO_BODY,
  paramKind,
  paramNames,
  routeKey,
  schemaKeys,
} from './route-inputs.ts';
import { buildWorld, TENANT_ROLES, type IdKind, type TenantRole, type World, type WorldTenant } from './world.ts';

/**
 * Tenant isolation over the whole route table (docs/testing-guards.md: "0 cross-tenant
 * reads or writes over every route x every role x a foreign tenant's ids").
 * Every route with path parameters is called by each role of tenant A (Alpha)
 * with tenant B's (Bravo) ids; every list is read by A's roles; and B's world,
 * read by B's Admin before and after, must not have changed. The route table is
 * walked, so a route added later is covered without a change here.
 */

/** Routes the matrix does not call with a user token, and why. */
export const EXEMPT: { test: (r: RegisteredRoute) => boolean; reason: string }[] = [
  {
    test: (r) => r.path.startsWith('/v0/webhooks/'),
    reason:
      'authenticated by a per-portal signature, not a user token; a portal only accepts messages signed with its own secret (webhooks and stripe API tests)',
  },
  {
    test: (r) => r.permission === 'public',
    reason: 'public (sign-in, sign-up, mail links, health): no tenant object is addressed by a user token',
  },
];
const exempt = (r: RegisteredRoute) => EXEMPT.some((e) => e.test(r));

const MAX_IDS_PER_PARAM = 3;

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t);
}, 120_000);
afterAll(() => t.close());

const mayDo = (route: RegisteredRoute, role: TenantRole | 'superAdmin') =>
  route.permission === 'self' ||
  (route.permission !== 'public' &&
    route.permission !== 'onboarding' &&
    (PERMISSIONS[route.permission] as readonly string[]).includes(role));

/** A few ids of a kind: first, middle and last, so the matrix stays small but not one-sided. */
function someIds(tenant: WorldTenant, kind: IdKind): number[] {
  const all = tenant.ids[kind];
  if (all.length === 0) throw new Error(`world has no ${kind} in ${tenant.label}`);
  return [...new Set([all[0], all[Math.floor(all.length / 2)], all[all.length - 1]])].slice(0, MAX_IDS_PER_PARAM);
}

/** Own value of a parameter for a caller of `tenant`: its own user id for "acting as", else the tenant's first id. */
const ownValue = (route: RegisteredRoute, name: string, tenant: WorldTenant, callerId: number) =>
  isActingUserParam(name) ? callerId : tenant.ids[paramKind(route.path, name)][0];

/** Every fill of the path's parameters with at least one foreign (B) id; others own. */
function foreignFills(route: RegisteredRoute, caller: { id: number }): Record<string, number>[] {
  const names = paramNames(route.path);
  const fills: Record<string, number>[] = [];
  for (let mask = 1; mask < 1 << names.length; mask++) {
    let partial: Record<string, number>[] = [{}];
    names.forEach((name, i) => {
      const values = mask & (1 << i) ? someIds(world.b, paramKind(route.path, name)) : [ownValue(route, name, world.a, caller.id)];
      partial = partial.flatMap((p) => values.map((v) => ({ ...p, [name]: v })));
    });
    fills.push(...partial);
  }
  return fills;
}

async function send(
  route: RegisteredRoute,
  token: string,
  params: Record<string, number>,
  tenant: WorldTenant,
  query?: Record<string, unknown>,
) {
  const body = ['POST', 'PATCH', 'PUT'].includes(route.method) ? exampleBody(route, params, tenant) : NO_BODY;
  return t.call(route.endpoint, {
    token,
    params,
    query: (query ?? exampleQuery(route, tenant)) as Record<string, string>,
    ...(body !== NO_BODY && { body }),
  });
}

const bravoIds = () => new Map((Object.keys(world.b.ids) as IdKind[]).map((k) => [k, new Set(world.b.ids[k])]));

/** Where an answer names tenant B: its marker word in any text, or a B id under an id key. */
function leaksOfB(route: RegisteredRoute, text: string, body: unknown): string[] {
  const found: string[] = [];
  if (/bravo/i.test(text)) found.push(`text mentions "${text.match(/.{0,40}bravo.{0,40}/i)?.[0]}"`);
  const ids = bravoIds();
  const walk = (value: unknown, key: string, kind: IdKind | undefined) => {
    if (Array.isArray(value)) value.forEach((v) => walk(v, key, kind));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k, k === 'data' || k === 'list' ? kind : OBJECT_KEY_KIND[k]);
    } else if (typeof value === 'number') {
      const idKind = key === 'id' ? kind : ID_KEY_KIND[key];
      if (idKind && ids.get(idKind)?.has(value)) found.push(`${key}=${value} is B's ${idKind}`);
    }
  };
  walk(body, '', answerKind(route.path));
  return found;
}

/** B's world as B's Admin reads it through every GET route (with B's ids). */
async function snapshotOfB(): Promise<Map<string, string>> {
  const snap = new Map<string, string>();
  const admin = world.b.users.Admin;
  for (const route of t.deps.routes.filter((r) => r.method === 'GET' && r.path.startsWith('/v0/api') && mayDo(r, 'Admin'))) {
    const names = paramNames(route.path);
    let fills: Record<string, number>[] = [{}];
    for (const name of names) {
      const values = isActingUserParam(name) ? [admin.id] : world.b.ids[paramKind(route.path, name)];
      fills = fills.flatMap((f) => values.map((v) => ({ ...f, [name]: v })));
    }
    for (const params of fills) {
      const res = await send(
        route,
        admin.token,
        params,
        world.b,
        names.length ? undefined : paged(route, { ...exampleQuery(route, world.b) }),
      );
      const key = `${routeKey(route)} ${JSON.stringify(params)}`;
      // B's own ids must read back: otherwise a 404 in the matrix would prove nothing.
      expect(res.status, `${key} as B's Admin: ${JSON.stringify(res.body).slice(0, 200)}`).toBeLessThan(300);
      // A PDF stamps its own creation time: only its status and type are compared.
      const binary = !/json|text|csv/.test(String(res.headers['content-type']));
      snap.set(
        key,
        binary
          ? `${res.status} ${String(res.headers['content-type'])}`
          : typeof res.body === 'string'
            ? res.body
            : JSON.stringify(res.body),
      );
    }
  }
  return snap;
}

let before: Map<string, string>;

describe('tenant isolation matrix', () => {
  it("B's world reads back for B's Admin (the matrix's ids are real)", async () => {
    before = await snapshotOfB();
    expect(before.size).toBeGreaterThan(20);
  });

  it("every role of A gets 404 (or 403 without the permission) for B's ids on every route with path parameters", async () => {
    const routes = t.deps.routes.filter((r) => paramNames(r.path).length > 0 && !exempt(r));
    const failures: string[] = [];
    let cells = 0;
    for (const route of routes) {
      for (const role of TENANT_ROLES) {
        const caller = world.a.users[role];
        for (const params of foreignFills(route, caller)) {
          cells++;
          const res = await send(route, caller.token, params, world.a);
          const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
          // Acting as a B user is refused outright (403) or not found (404); otherwise only 404 or the role's 403.
          const actsAsOther = paramNames(route.path).some((n) => isActingUserParam(n) && params[n] !== caller.id);
          const allowed = mayDo(route, role) ? (actsAsOther ? [403, 404] : [404]) : [403];
          const problems = [
            ...(allowed.includes(res.status) ? [] : [`status ${res.status}, expected ${allowed.join('/')}`]),
            ...(res.body && typeof res.body === 'object' && 'data' in res.body ? ['answer carries data'] : []),
            ...leaksOfB(route, text, res.body),
          ];
          if (problems.length)
            failures.push(
              `${routeKey(route)} as A ${role} params=${JSON.stringify(params)}: ${problems.join('; ')} -> ${text.slice(0, 200)}`,
            );
        }
      }
    }
    console.log(
      `isolation matrix: ${routes.length} routes with path parameters x ${TENANT_ROLES.length} roles -> ${cells} foreign-id calls`,
    );
    expect(failures).toEqual([]);
  });

  it("A's own ids read back for every role that may read them (the matrix can fail)", async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const route of t.deps.routes.filter((r) => r.method === 'GET' && paramNames(r.path).length > 0 && !exempt(r))) {
      for (const role of TENANT_ROLES) {
        const caller = world.a.users[role];
        const params = Object.fromEntries(paramNames(route.path).map((n) => [n, ownValue(route, n, world.a, caller.id)]));
        const res = await send(route, caller.token, params, world.a);
        calls++;
        const ok = mayDo(route, role) ? res.status === 200 : res.status === 403;
        if (!ok)
          failures.push(
            `${routeKey(route)} as A ${role} ${JSON.stringify(params)}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
          );
      }
    }
    console.log(`isolation sanity: ${calls} own-id reads`);
    expect(failures).toEqual([]);
  });

  it("A's lists, searches and counts never show B, whatever B id they are filtered by", async () => {
    const lists = t.deps.routes.filter(
      (r) => r.method === 'GET' && r.path.startsWith('/v0/') && paramNames(r.path).length === 0 && !exempt(r),
    );
    const failures: string[] = [];
    let calls = 0;
    for (const route of lists) {
      for (const role of TENANT_ROLES) {
        const caller = world.a.users[role];
        for (const { query, foreign } of listVariants(route)) {
          const res = await send(route, caller.token, {}, world.a, query);
          calls++;
          const where = `${routeKey(route)} as A ${role} query=${JSON.stringify(query)}`;
          const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
          if (!mayDo(route, role)) {
            if (res.status !== 403) failures.push(`${where}: ${res.status}, expected 403`);
            continue;
          }
          if (res.status >= 500) failures.push(`${where}: ${res.status} ${text.slice(0, 160)}`);
          if (res.status >= 300) continue;
          const binary = !/json|text|csv/.test(String(res.headers['content-type']));
          // A file download cannot be searched (compressed PDF): it must not be made for B's id at all.
          if (binary && foreign) failures.push(`${where}: ${res.status} file for a B id`);
          const leaks = leaksOfB(route, text, res.body);
          if (leaks.length) failures.push(`${where}: ${leaks.join('; ')}`);
        }
      }
    }
    console.log(`isolation lists: ${lists.length} routes without path parameters -> ${calls} calls`);
    expect(failures).toEqual([]);
  });

  it("A's totals count only A's devices, cases and offline portals", async () => {
    const token = world.a.users.Salesman.token;
    const get = async (path: string) => {
      const route = t.deps.routes.find((r) => r.method === 'GET' && r.path === path);
      if (!route) return undefined;
      const res = await send(route, token, {}, world.a, paged(route, { ...exampleQuery(route, world.a) }));
      expect(res.status, path).toBe(200);
      return (res.body as { data: unknown }).data;
    };
    const devices = world.a.ids.device.length;
    const pulse = (await get('/v0/api/device-summary/sumup')) as { onlineCount: number; offlineCount: number } | undefined;
    if (pulse) expect(pulse.onlineCount + pulse.offlineCount).toBe(devices);
    const byType = (await get('/v0/api/device-stats/sumup')) as { totalCount: number }[] | undefined;
    if (byType) expect(byType.reduce((n, r) => n + r.totalCount, 0)).toBe(devices);
    const table = (await get('/v0/api/device-stats')) as { list: { totalCount: number }[] } | undefined;
    if (table) expect(table.list.reduce((n, r) => n + r.totalCount, 0)).toBe(devices);
    const open = (await get('/v0/api/case-stats/sumup')) as { list: { count: number }[] } | undefined;
    if (open) expect(open.list.reduce((n, r) => n + r.count, 0)).toBe(world.a.openCaseIds.length);
    const live = (await get('/v0/api/live-events')) as { count: number } | undefined;
    if (live) expect(live.count).toBe(world.a.portalsWithOffline.length);
  });

  it("B's ids inside bodies never write into B or answer B's data", async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const route of t.deps.routes.filter((r) => ['POST', 'PATCH', 'PUT'].includes(r.method) && r.endpoint.body && !exempt(r))) {
      for (const role of TENANT_ROLES.filter((r) => mayDo(route, r))) {
        const caller = world.a.users[role];
        const params = Object.fromEntries(paramNames(route.path).map((n) => [n, ownValue(route, n, world.a, caller.id)]));
        const example = exampleBody(route, params, world.a);
        const base = example && typeof example === 'object' ? example : {};
        for (const key of schemaKeys(route.endpoint.body).filter((k) => ID_KEY_KIND[k])) {
          const body = { ...base, [key]: world.b.ids[ID_KEY_KIND[key]][0] };
          const res = await t.call(route.endpoint, { token: caller.token, params, body });
          calls++;
          const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
          const leaks = res.status < 300 ? leaksOfB(route, text, res.body) : [];
          if (res.status >= 500 || leaks.length)
            failures.push(
              `${routeKey(route)} as A ${role} body=${JSON.stringify(body)}: ${res.status} ${leaks.join('; ')} ${text.slice(0, 160)}`,
            );
        }
      }
    }
    console.log(`isolation bodies: ${calls} calls with a B id inside the body`);
    expect(failures).toEqual([]);
  });

  it("B's world is unchanged after every call A made", async () => {
    const after = await snapshotOfB();
    const changed = [...before.keys()]
      .filter((k) => before.get(k) !== after.get(k))
      .map((k) => `${k}\n  before ${before.get(k)!.slice(0, 300)}\n  after  ${after.get(k)?.slice(0, 300)}`);
    expect(changed).toEqual([]);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  });
});

/** Queries of a list route: its plain form, paged, and filtered by each B id / B word its schema accepts. */
function listVariants(route: RegisteredRoute): { query: Record<string, unknown>; foreign: boolean }[] {
  const base: Record<string, unknown> = { ...exampleQuery(route, world.a) };
  const accepts = (q: Record<string, unknown>) => acceptsQuery(route, q);
  const variants = [{ query: base, foreign: false }];
  if (accepts({ ...base, range: [0, 100] })) variants.push({ query: { ...base, range: [0, 100] }, foreign: false });
  for (const [key, kind] of Object.entries(ID_KEY_KIND)) {
    const id = world.b.ids[kind][0];
    const inFilter = { ...base, filter: { [key]: id } };
    if (accepts(inFilter)) variants.push({ query: inFilter, foreign: true });
    const plain = { ...base, [key]: String(id) };
    if (accepts(plain)) variants.push({ query: plain, foreign: true });
  }
  for (const key of ['q', 'name', 'tenantName']) {
    const words = { ...base, filter: { [key]: 'Bravo' } };
    if (accepts(words)) variants.push({ query: words, foreign: false });
  }
  return variants;
}

/** Whether the route's query schema takes this query (range/sort/filter given as values, sent as JSON). */
function acceptsQuery(route: RegisteredRoute, q: Record<string, unknown>): boolean {
  const raw = Object.fromEntries(
    Object.entries(q).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean | undefined)]),
  );
  return route.endpoint.query?.safeParse(raw).success ?? false;
}

/** The query with a page large enough for the whole world, when the route pages. */
const paged = (route: RegisteredRoute, q: Record<string, unknown>) =>
  acceptsQuery(route, { ...q, range: [0, 100] }) ? { ...q, range: [0, 100] } : q;

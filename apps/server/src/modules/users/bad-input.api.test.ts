import { tenantsEndpoints, usersEndpoints, type Endpoint } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/** Values that are wrong for some field somewhere: types, ranges, sizes, ids beyond PostgreSQL integers. */
const BAD_VALUES: unknown[] = [
  null,
  -1,
  0,
  1.5,
  3_000_000_000,
  1e300,
  '',
  ' ',
  'x',
  'a'.repeat(5000),
  [],
  [''],
  ['superAdmin'],
  {},
  true,
  '<script>alert(1)</script>',
  "'; drop table users; --",
];

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

/** Each field of a valid body replaced by each bad value in turn; every answer must be a 4xx or a success, never a 5xx. */
async function fuzzBody(endpoint: Endpoint, token: string, valid: Record<string, unknown>, params?: Record<string, number>) {
  const statuses = new Set<number>();
  for (const field of Object.keys(valid)) {
    for (const value of BAD_VALUES) {
      const res = await t.call(endpoint, { token, params, body: { ...valid, [field]: value } });
      expect(res.status, `${endpoint.method} ${endpoint.path} ${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
      statuses.add(res.status);
    }
  }
  return statuses;
}

describe('generated bad input never answers 5xx', () => {
  it('tenant create and update', async () => {
    const form = {
      name: 'N',
      contactName: 'C',
      email: 'e@x.test',
      phone: '1',
      address: 'A',
      goalScore: 95,
      brand: 'B',
      heartbeatTimeout: 10,
      timezone: 'UTC',
      freeCount: 1,
      freeTier: false,
      discount: 0,
    };
    const created = await fuzzBody(tenantsEndpoints.create, cast.superAdmin.token, form);
    expect(created.has(400)).toBe(true);
    await fuzzBody(tenantsEndpoints.update, cast.superAdmin.token, form, { id: cast.other.id });
    await fuzzBody(tenantsEndpoints.update, cast.admin.token, form, { id: cast.tenant.id });
  });

  it('user create and update', async () => {
    let n = 0;
    const statuses = new Set<number>();
    for (const value of BAD_VALUES) {
      for (const field of ['tenantId', 'name', 'email', 'phone', 'roles']) {
        const body = {
          tenantId: cast.tenant.id,
          name: 'A B',
          email: `fuzz${++n}@example.com`,
          phone: '1',
          roles: ['Salesman'],
          [field]: value,
        };
        const res = await t.call(usersEndpoints.create, { token: cast.superAdmin.token, body });
        expect(res.status, `create ${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
        statuses.add(res.status);
      }
    }
    expect(statuses.has(400)).toBe(true);
    const target = await createUser(t, { tenant: cast.tenant, roles: ['Salesman'] });
    const valid = {
      name: 'A B',
      firstName: 'A',
      lastName: 'B',
      email: `fuzz-edit@example.com`,
      phone: '1',
      roles: ['Salesman'],
      tenantId: cast.tenant.id,
      tenantName: 'x',
    };
    await fuzzBody(usersEndpoints.update, cast.superAdmin.token, valid, { id: target.id });
  });

  it('list queries and path ids', async () => {
    // Raw query strings, so malformed JSON reaches the server as typed.
    const queries = [
      'range=nope',
      'range=[0]',
      'range=[-1,10]',
      'range=[0,1e12]',
      'range={}',
      'sort=["name"]',
      'sort=["name","UP"]',
      'sort=["password_hash","ASC"]',
      'filter=[]',
      'filter={"q":5}',
      'filter={"tenantId":3000000000}',
      'filter={"tenantId":"1"}',
      `filter={"q":"${'%'.repeat(50)}_\\\\"}`,
      'other=1',
    ];
    for (const query of queries) {
      for (const endpoint of [tenantsEndpoints.list, usersEndpoints.list]) {
        const url = `${endpoint.path}?${query
          .split('&')
          .map((kv) => kv.replace(/=(.*)$/, (_, v: string) => `=${encodeURIComponent(v)}`))
          .join('&')}`;
        const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${cast.superAdmin.token}` } });
        expect(res.statusCode, `${endpoint.path}?${query}`).toBeLessThan(500);
      }
    }
    for (const id of ['0', '-1', 'abc', '3000000000', '1.5', '1e3']) {
      for (const endpoint of [tenantsEndpoints.get, usersEndpoints.get]) {
        const res = await t.app.inject({
          method: 'GET',
          url: endpoint.path.replace(':id', id),
          headers: { authorization: `Bearer ${cast.superAdmin.token}` },
        });
        expect(res.statusCode, `${endpoint.path} id=${id}`).toBeLessThan(500);
      }
    }
  });
});

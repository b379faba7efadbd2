import { billingEndpoints, reportEndpoints, type Endpoint } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createPortal, createUser } from '../../../test/factories.ts';
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
  [0, 0, 0, 0],
  [7],
  {},
  true,
  '<script>alert(1)</script>',
  "'; drop table reports; --",
  '../../v1/customers',
];

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let portalId: number;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
  portalId = (await createPortal(t, cast.tenant)).id;
});
afterAll(() => t.close());

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

const raw = (method: 'GET' | 'POST', url: string, token: string) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });

describe('generated bad input on reports and billing never answers 5xx', () => {
  it('report bodies', async () => {
    const valid = { customerId: portalId, period: 1, config: [0, 1, 2] };
    expect((await fuzzBody(reportEndpoints.create, cast.admin.token, valid, { id: portalId })).has(400)).toBe(true);
    await fuzzBody(reportEndpoints.preview, cast.pm.token, valid);
    const created = await t.call(reportEndpoints.create, { token: cast.admin.token, params: { id: portalId }, body: valid });
    await fuzzBody(reportEndpoints.update, cast.admin.token, { period: 0, config: [1] }, { id: created.body.data.id });
  });

  it('billing bodies', async () => {
    const user = await createUser(t, { tenant: null, roles: [] });
    const form = { name: 'N', contactName: 'C', email: 'e@x.test', phone: '1', address: 'A', goalScore: 95 };
    expect((await fuzzBody(billingEndpoints.registerWithSubscription, user.token, form)).has(400)).toBe(true);
    await fuzzBody(billingEndpoints.verifyCheckoutSession, user.token, { sessionId: 'sbx_cs_x', tenantId: 1, success: true });
  });

  it('list queries, download queries and path ids', async () => {
    const lists = [
      'range=nope',
      'range=[0]',
      'range=[-1,10]',
      'range=[0,1e12]',
      'range=[1e15,10]',
      'sort=["customerName"]',
      'sort=["customerName","UP"]',
      'sort=["apiKeyEnc","ASC"]',
      'filter=[]',
      'filter={"q":5}',
      'filter={"customerId":3000000000}',
      'filter={"customerId":"1"}',
      `filter={"q":"${'%'.repeat(50)}_\\\\"}`,
      'filter={"status":"paid"}',
      'other=1',
    ];
    for (const q of lists) {
      for (const url of [`/v0/api/reports?${q}`, `/v0/api/billings?${q}`]) {
        const res = await raw('GET', url, cast.admin.token);
        expect(res.statusCode, url).toBeLessThan(500);
      }
    }
    const downloads = [
      'customerId=abc&period=0&config=[0]',
      'customerId=3000000000&period=0&config=[0]',
      'customerId=1&period=1.5&config=[0]',
      'customerId=1&period=0&config={}',
      'customerId=1&period=0&config=[0,1,2,2,2]',
      'customerId=1&period=0',
      'period=0&config=[0]&x=1',
    ];
    for (const q of downloads) {
      for (const ext of ['csv', 'pdf']) {
        const res = await raw('GET', `/v0/api/reports/preview/export.${ext}?${q}`, cast.admin.token);
        expect(res.statusCode, q).toBeLessThan(500);
      }
    }
    for (const id of ['0', '-1', 'abc', '3000000000', '1.5', '1e3', '%00']) {
      for (const path of [`/v0/api/reports/${id}`, `/v0/api/reports/${id}/export.csv`, `/v0/api/reports/${id}/export.pdf`]) {
        expect((await raw('GET', path, cast.admin.token)).statusCode, path).toBeLessThan(500);
      }
      expect((await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${id}` })).statusCode).toBe(404);
    }
  });
});

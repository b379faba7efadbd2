import { reportEndpoints as E } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '../../db/schema/index.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { deviceWithHistory } from '../../../test/kits/reports/report.fixtures.ts';

const NOW = '2026-11-18T12:00:00.000Z';
const INJECTION = "=cmd|' /C calc'!A0";

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let portal: TestPortal;
let otherPortal: TestPortal;

const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  cast = await createCast(t);
  portal = await createPortal(t, cast.tenant, 'Harbor Mall');
  otherPortal = await createPortal(t, cast.other, 'Foreign Plaza');
  await deviceWithHistory(t, portal, INJECTION, [
    { status: 1, from: '2026-11-01T00:00:00Z', to: '2026-11-17T00:00:00Z' },
    { status: 0, from: '2026-11-17T00:00:00Z' },
  ]);
});
afterAll(() => t.close());

describe('saving and reading reports', () => {
  let reportId: number;

  it('Admin, Project Manager and Salesman create a report (201); superAdmin may not (403)', async () => {
    for (const user of [cast.admin, cast.pm, cast.salesman]) {
      const res = await t.call(E.create, {
        token: user.token,
        params: { id: portal.id },
        body: { customerId: portal.id, period: 1, config: [2, 0, 1] },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        customerId: portal.id,
        customerName: 'Harbor Mall',
        period: 1,
        config: [0, 1, 2],
        tenantName: cast.tenant.name,
        createdAt: NOW,
      });
      reportId = res.body.data.id;
    }
    const denied = await t.call(E.create, {
      token: cast.superAdmin.token,
      params: { id: portal.id },
      body: { customerId: portal.id, period: 1, config: [0] },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error!.msg).toBe('To proceed, Log out and Sign in as a standard tenant user.');
  });

  it('validates the config with clear messages', async () => {
    const cases: [unknown, string][] = [
      [{ customerId: portal.id, period: 4, config: [0] }, 'body.period: must be a number 0..3'],
      [{ customerId: portal.id, period: '1', config: [0] }, 'body.period: must be a number 0..3'],
      [{ customerId: portal.id, period: 0, config: [3] }, 'body.config.0: must list report types 0..2'],
      [{ customerId: portal.id, period: 0, config: 'all' }, 'body.config: must list report types 0..2'],
      [{ customerId: portal.id, period: 0, config: [] }, 'body.config: choose at least one report type'],
      [{ period: 0, config: [0] }, 'body.customerId: select a customer'],
      [{ customerId: portal.id, period: 0, config: [0], extra: 1 }, 'body: Unrecognized key: "extra"'],
      [{ customerId: otherPortal.id, period: 0, config: [0] }, 'customerId must be the customer of the path'],
    ];
    for (const [body, msg] of cases) {
      const res = await t.call(E.create, { token: cast.admin.token, params: { id: portal.id }, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error!.msg).toBe(msg);
    }
  });

  it("another tenant's portal or report answers 404 like a missing one", async () => {
    const create = await t.call(E.create, {
      token: cast.otherAdmin.token,
      params: { id: portal.id },
      body: { customerId: portal.id, period: 0, config: [0] },
    });
    expect(create.status).toBe(404);
    for (const id of [reportId, 999999]) {
      expect((await t.call(E.get, { token: cast.otherAdmin.token, params: { id } })).status).toBe(404);
      expect((await t.call(E.update, { token: cast.otherAdmin.token, params: { id }, body: { period: 0 } })).status).toBe(404);
      expect((await get(`/v0/api/reports/${id}/export.csv`, cast.otherAdmin.token)).statusCode).toBe(404);
      expect((await get(`/v0/api/reports/${id}/export.pdf`, cast.otherAdmin.token)).statusCode).toBe(404);
    }
    const preview = await t.call(E.preview, { token: cast.otherAdmin.token, body: { customerId: portal.id, period: 0, config: [0] } });
    expect(preview.status).toBe(404);
    expect(
      (await get(`/v0/api/reports/preview/export.csv?customerId=${portal.id}&period=0&config=[0]`, cast.otherAdmin.token)).statusCode,
    ).toBe(404);
  });

  it('reads a report with its computed content (every role; superAdmin reads all tenants)', async () => {
    for (const user of [cast.admin, cast.pm, cast.salesman, cast.superAdmin]) {
      const res = await t.call(E.get, { token: user.token, params: { id: reportId } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: reportId, customerName: 'Harbor Mall', period: 1 });
      expect(res.body.data.content.period).toMatchObject({ code: 1, label: 'This Month', from: '2026-11-01T00:00:00.000Z' });
      expect(res.body.data.content.reliability!.topOfflineDevices[0].name).toBe(INJECTION);
    }
  });

  it('PATCH changes period and config (not superAdmin)', async () => {
    const res = await t.call(E.update, { token: cast.salesman.token, params: { id: reportId }, body: { period: 3, config: [1] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ period: 3, config: [1] });
    const read = await t.call(E.get, { token: cast.admin.token, params: { id: reportId } });
    expect(read.body.data.content.config).toEqual([1]);
    expect(read.body.data.content.openCases).toBeUndefined();
    expect((await t.call(E.update, { token: cast.superAdmin.token, params: { id: reportId }, body: { period: 0 } })).status).toBe(403);
    expect((await t.call(E.update, { token: cast.admin.token, params: { id: reportId }, body: { period: 9 } })).status).toBe(400);
  });

  it('lists with the envelope, filter, sort and tenant scoping', async () => {
    const foreign = await t.call(E.create, {
      token: cast.otherAdmin.token,
      params: { id: otherPortal.id },
      body: { customerId: otherPortal.id, period: 0, config: [0] },
    });
    expect(foreign.status).toBe(201);
    const mine = await t.call(E.list, { token: cast.pm.token, query: { range: [0, 2], sort: ['createdAt', 'DESC'] } });
    expect(mine.status).toBe(200);
    expect(mine.body.data.count).toBe(3);
    expect(mine.body.data.list).toHaveLength(2);
    const all = await t.call(E.list, { token: cast.superAdmin.token, query: { sort: ['customerName', 'ASC'] } });
    expect(all.body.data.count).toBe(4);
    expect(all.body.data.list[0].customerName).toBe('Foreign Plaza');
    expect(all.body.data.list[0].tenantName).toBe(cast.other.name);
    const byName = await t.call(E.list, { token: cast.superAdmin.token, query: { filter: { q: 'harbor' } } });
    expect(byName.body.data.count).toBe(3);
    const byCustomer = await t.call(E.list, { token: cast.superAdmin.token, query: { filter: { customerId: otherPortal.id } } });
    expect(byCustomer.body.data.list.map((r) => r.customerName)).toEqual(['Foreign Plaza']);
    const bad = await t.call(E.list, { token: cast.admin.token, query: { sort: ['apiKey', 'ASC'] } });
    expect(bad.status).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/v0/api/reports' })).statusCode).toBe(401);
  });
});

describe('preview (reports/-1)', () => {
  it('computes without saving, for every role including superAdmin', async () => {
    const before = (await t.database.db.select().from(reports)).length;
    for (const user of [cast.admin, cast.salesman, cast.superAdmin]) {
      const res = await t.call(E.preview, { token: user.token, body: { customerId: portal.id, period: 0, config: [0, 1, 2] } });
      expect(res.status).toBe(200);
      expect(res.body.data.portal).toEqual({ id: portal.id, name: 'Harbor Mall' });
      expect(res.body.data.reliability!.score).toBe(40);
    }
    expect((await t.database.db.select().from(reports)).length).toBe(before);
  });
});

describe('downloads', () => {
  it('CSV: attachment, RFC 4180, the injected device name neutralized', async () => {
    const res = await get(
      `/v0/api/reports/preview/export.csv?customerId=${portal.id}&period=0&config=${encodeURIComponent('[0,1,2]')}`,
      cast.salesman.token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="vigil-report-harbor-mall-this-week-2026-11-18.csv"');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('Section,Item,Value,Details');
    expect(lines).toContain('Report,Customer,Harbor Mall,');
    expect(lines).toContain('Reliability,Score (%),40,');
    expect(lines).toContain("Most offline devices,'=cmd|' /C calc'!A0,129600,Camera; seconds offline (1d 12h 0m)");
    expect(res.body).not.toMatch(/(^|,)=cmd/m);
    expect(lines).toContain('Daily online share (%),2026-11-17,0,');
  });

  it('saved report CSV and PDF', async () => {
    const created = await t.call(E.create, {
      token: cast.admin.token,
      params: { id: portal.id },
      body: { customerId: portal.id, period: 2, config: [0, 1, 2] },
    });
    const id = created.body.data.id;
    const csv = await get(`/v0/api/reports/${id}/export.csv`, cast.pm.token);
    expect(csv.statusCode).toBe(200);
    // The period as the web page and the PDF write it: local dates and the zone.
    expect(csv.body).toMatch(/Report,Period,This Quarter,2026-10-01 to 2026-11-18 \(UTC\)/);
    const pdf = await get(`/v0/api/reports/${id}/export.pdf`, cast.superAdmin.token);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="vigil-report-harbor-mall-this-quarter-2026-11-18\.pdf"$/);
    const bytes = pdf.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(3000);
    expect(bytes.length).toBeLessThan(500_000);
    expect(bytes.subarray(-6).toString('latin1')).toContain('%%EOF');
  });

  it('a year-long preview PDF still renders (hundreds of bars)', async () => {
    const res = await get(`/v0/api/reports/preview/export.pdf?customerId=${portal.id}&period=3&config=[0,1,2]`, cast.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('%PDF');
  });

  it('preview download query is validated; downloads need a token', async () => {
    expect(
      (await get(`/v0/api/reports/preview/export.csv?customerId=${portal.id}&period=0&config=oops`, cast.admin.token)).statusCode,
    ).toBe(400);
    expect((await get(`/v0/api/reports/preview/export.csv?customerId=${portal.id}&period=7&config=[0]`, cast.admin.token)).statusCode).toBe(
      400,
    );
    expect((await t.app.inject({ method: 'GET', url: `/v0/api/reports/1/export.pdf` })).statusCode).toBe(401);
  });
});

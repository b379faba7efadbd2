import { alertEndpoints, licenseEndpoints, LICENSE_MSG, MSG } from '@vigil/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { licenseScanJob } from '../../jobs/license-scan.job.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { createCast, createPortal, createTenant, createUser, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { DAY_MS, expectError, renewTokens } from '../../../test/kits/cases/operations-test-support.ts';
import { dateIn, daysBetween } from './license-dates.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let portal: TestPortal;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-11-22T06:00:00.000Z');
  cast = await createCast(t);
  portal = await createPortal(t, cast.tenant, 'Harbor Storage');
});
afterAll(() => t.close());

const valid = { deviceType: 1, terms: 3, deviceCount: 12, startDate: '2026-01-10' };
const addLicense = (body: unknown, token = cast.admin.token, portalId: number | string = portal.id) =>
  t.call(licenseEndpoints.create, { params: { id: portalId }, token, body });
/** A start date whose 1-year license ends `days` days after today (UTC). */
const startEndingIn = (days: number) => {
  const end = new Date(t.clock.now().getTime() + days * DAY_MS);
  return `${end.getUTCFullYear() - 1}-${dateIn(end, 'UTC').slice(5)}`;
};
const renewalAlerts = async (who: 'admin' | 'other' = 'admin') => {
  await renewTokens(t, [cast.admin, cast.pm, cast.salesman, cast.superAdmin, cast.otherAdmin]);
  const token = who === 'admin' ? cast.admin.token : cast.otherAdmin.token;
  const res = await t.call(alertEndpoints.list, { token, query: { filter: { alertType: 1 }, range: [0, 1000] } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.list;
};

describe('POST /customers/:id/licenses', () => {
  it('adds a license with its end date and days remaining', async () => {
    const res = await addLicense({ ...valid, customerId: portal.id, customerName: 'ignored' }, cast.salesman.token);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      customerId: portal.id,
      customerName: 'Harbor Storage',
      deviceType: 1,
      deviceCount: 12,
      terms: 3,
      startDate: '2026-01-10',
      endDate: '2029-01-10',
      daysRemaining: daysBetween('2026-11-22', '2029-01-10'),
    });
    const leap = await addLicense({ ...valid, terms: 1, startDate: '2024-02-29' }, cast.pm.token);
    expect(leap.body.data).toMatchObject({ endDate: '2025-02-28', daysRemaining: daysBetween('2026-11-22', '2025-02-28') });
    expect(leap.body.data.daysRemaining).toBeLessThan(0);
  });

  it('answers the product messages for each field', async () => {
    const cases: [Record<string, unknown>, string | { endsWith: string }][] = [
      [{ ...valid, deviceType: undefined }, MSG.deviceType],
      [{ ...valid, deviceType: 'Camera' }, MSG.deviceType],
      [{ ...valid, deviceType: 7 }, MSG.deviceType],
      [{ ...valid, deviceCount: undefined }, MSG.deviceCount],
      [{ ...valid, deviceCount: 0 }, MSG.deviceCount],
      [{ ...valid, deviceCount: 2.5 }, MSG.deviceCount],
      [{ ...valid, terms: undefined }, MSG.terms],
      [{ ...valid, terms: null }, MSG.terms],
      [{ ...valid, terms: 2 }, { endsWith: LICENSE_MSG.termsValue }],
      [{ ...valid, startDate: undefined }, MSG.startDate],
      [{ ...valid, startDate: '  ' }, MSG.startDate],
      [{ ...valid, startDate: '2025-02-29' }, { endsWith: LICENSE_MSG.startDateValue }],
      [{ ...valid, startDate: '10/01/2026' }, { endsWith: LICENSE_MSG.startDateValue }],
      [{ ...valid, customerId: portal.id + 1000 }, LICENSE_MSG.customerMismatch],
    ];
    for (const [body, msg] of cases) expectError(await addLicense(body), 400, msg);
    expectError(await addLicense({ ...valid, tenantId: 3 }), 400);
  });

  it('takes the portal id in the path, never a name', async () => {
    expectError(await addLicense(valid, cast.admin.token, 'Harbor Storage'), 404); // names nothing (docs/decisions.md 18)
    expectError(await addLicense(valid, cast.admin.token, 999_999), 404);
  });

  it('enforces roles and tenant isolation', async () => {
    expectError(await addLicense(valid, cast.superAdmin.token), 403, MSG.tenantOnly);
    expectError(await addLicense(valid, cast.otherAdmin.token), 404);
    expectError(await t.call(licenseEndpoints.create, { params: { id: portal.id }, body: valid }), 401);
  });
});

describe('GET /licenses and DELETE /licenses/:id', () => {
  it('lists by customer (plain parameter or filter) and sorts on every column', async () => {
    const other = await createPortal(t, cast.tenant, 'Quay Offices');
    await addLicense({ deviceType: 4, terms: 10, deviceCount: 2, startDate: '2020-05-05' }, cast.admin.token, other.id);
    const foreign = await createPortal(t, cast.other);
    await addLicense(valid, cast.otherAdmin.token, foreign.id);

    const plain = await t.call(licenseEndpoints.list, { token: cast.salesman.token, query: { customerId: other.id } });
    expect(plain.body.data).toMatchObject({ count: 1, list: [{ customerName: 'Quay Offices', endDate: '2030-05-05' }] });
    const filtered = await t.call(licenseEndpoints.list, { token: cast.salesman.token, query: { filter: { customerId: other.id } } });
    expect(filtered.body.data.list).toEqual(plain.body.data.list);
    const all = await t.call(licenseEndpoints.list, { token: cast.admin.token, query: { range: [0, 100] } });
    expect(all.body.data.list.every((l) => [portal.id, other.id].includes(l.customerId))).toBe(true);
    expect(all.body.data.count).toBe(all.body.data.list.length);

    for (const field of ['id', 'customerName', 'deviceType', 'deviceCount', 'terms', 'startDate', 'endDate', 'daysRemaining'] as const) {
      const asc = await t.call(licenseEndpoints.list, { token: cast.admin.token, query: { sort: [field, 'ASC'], range: [0, 100] } });
      const values = asc.body.data.list.map((l) => (field === 'customerName' ? l[field].toLowerCase() : l[field]));
      expect(
        [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        field,
      ).toEqual(values);
    }
    const platform = await t.call(licenseEndpoints.list, { token: cast.superAdmin.token, query: { range: [0, 100] } });
    expect(platform.body.data.count).toBe(all.body.data.count + 1);
    expectError(await t.call(licenseEndpoints.list, { token: cast.admin.token, query: { sort: ['secret', 'ASC'] } }), 400);
    expectError(await t.call(licenseEndpoints.list, { token: cast.admin.token, query: { customerId: 'Harbor' } }), 400);
  });

  it("computes daysRemaining in the tenant's time zone", async () => {
    const tenant = await createTenant(t, { timezone: 'America/Los_Angeles' });
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const west = await createPortal(t, tenant);
    // 06:00 UTC on Nov 22 is still Nov 21 in Los Angeles.
    const res = await addLicense({ ...valid, terms: 1, startDate: '2025-11-22' }, admin.token, west.id);
    expect(res.body.data.daysRemaining).toBe(1);
    const utc = await addLicense({ ...valid, terms: 1, startDate: '2025-11-22' });
    expect(utc.body.data.daysRemaining).toBe(0);
  });

  it('deletes for the licensing roles only; other tenants get 404', async () => {
    const created = (await addLicense(valid)).body.data;
    expectError(await t.call(licenseEndpoints.remove, { params: { id: created.id }, token: cast.superAdmin.token }), 403);
    expectError(await t.call(licenseEndpoints.remove, { params: { id: created.id }, token: cast.otherAdmin.token }), 404);
    expect((await t.call(licenseEndpoints.remove, { params: { id: created.id }, token: cast.salesman.token })).body).toEqual({
      data: { ok: true },
    });
    expectError(await t.call(licenseEndpoints.remove, { params: { id: created.id }, token: cast.salesman.token }), 404);
    const left = await t.call(licenseEndpoints.list, { token: cast.admin.token, query: { range: [0, 1000] } });
    expect(left.body.data.list.some((l) => l.id === created.id)).toBe(false);
  });
});

describe('License Renewal Pending alerts', () => {
  beforeEach(() => renewTokens(t, [cast.admin, cast.pm, cast.salesman, cast.superAdmin, cast.otherAdmin]));

  it('opens at creation for a license ending within 90 days, once, and resolves when it is deleted', async () => {
    const soon = (await addLicense({ ...valid, terms: 1, deviceCount: 7, startDate: startEndingIn(60) })).body.data;
    expect(soon.daysRemaining).toBe(60);
    const alerts = (await renewalAlerts()).filter((a) => a.licenseId === soon.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ customerId: portal.id, alertType: 1, offlineCount: 7, status: 1, resolvedAt: null });

    t.clock.advance(DAY_MS);
    expect(await runTickOnce(t.deps, licenseScanJob)).toBe(true);
    expect((await renewalAlerts()).filter((a) => a.licenseId === soon.id)).toHaveLength(1);

    expect((await t.call(licenseEndpoints.remove, { params: { id: soon.id }, token: cast.pm.token })).status).toBe(200);
    const [resolved] = (await renewalAlerts()).filter((a) => a.licenseId === soon.id);
    expect(resolved).toMatchObject({ status: 0, resolvedAt: t.clock.now().toISOString() });
  });

  it('opens on the daily scan when a license enters the window, and the next scan does not duplicate it', async () => {
    const later = (await addLicense({ ...valid, terms: 1, startDate: startEndingIn(95) })).body.data;
    const longAgo = (await addLicense({ ...valid, terms: 1, startDate: '2020-01-01' })).body.data;
    const far = (await addLicense({ ...valid, terms: 5, startDate: '2026-01-01' })).body.data;
    const ids = [later.id, longAgo.id, far.id];
    expect((await renewalAlerts()).filter((a) => ids.includes(a.licenseId!))).toHaveLength(0);

    t.clock.advance(4 * DAY_MS);
    await runTickOnce(t.deps, licenseScanJob);
    expect((await renewalAlerts()).filter((a) => ids.includes(a.licenseId!))).toHaveLength(0);

    t.clock.advance(DAY_MS);
    expect(await runTickOnce(t.deps, licenseScanJob)).toBe(true);
    const opened = (await renewalAlerts()).filter((a) => ids.includes(a.licenseId!));
    expect(opened.map((a) => a.licenseId)).toEqual([later.id]);
    expect(await runTickOnce(t.deps, licenseScanJob)).toBe(false);

    for (let day = 0; day < 3; day++) {
      t.clock.advance(DAY_MS);
      expect(await runTickOnce(t.deps, licenseScanJob)).toBe(true);
    }
    expect((await renewalAlerts()).filter((a) => a.licenseId === later.id)).toHaveLength(1);
    expect((await renewalAlerts('other')).some((a) => a.licenseId === later.id)).toBe(false);
  });

  it('marks the alert of an already ended license critical (status 2)', async () => {
    const ended = (await addLicense({ ...valid, terms: 1, startDate: startEndingIn(-10) })).body.data;
    expect(ended.daysRemaining).toBe(-10);
    const [alert] = (await renewalAlerts()).filter((a) => a.licenseId === ended.id);
    expect(alert).toMatchObject({ status: 2 });
  });
});

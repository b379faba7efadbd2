import { ALERT_MSG, alertEndpoints, licenseEndpoints, MSG } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { TOPICS } from '../../events/topics.ts';
import { applyOfflineAlertRules } from './index.ts';
import { createCast, createDevices, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { expectError, openCaseOf, removeDevices, setDeviceStatus } from '../../../test/kits/cases/operations-test-support.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

async function portalWith(statuses: (0 | 1)[], tenant = cast.tenant): Promise<{ portal: TestPortal; ids: number[] }> {
  const portal = await createPortal(t, tenant);
  const devices = await createDevices(
    t,
    portal,
    statuses.map((status) => ({ status })),
  );
  return { portal, ids: devices.map((d) => d.id) };
}
const createAlert = (body: unknown, token = cast.admin.token) => t.call(alertEndpoints.create, { token, body });

describe('POST /alert-stats', () => {
  it("opens a Device Offline alert holding the portal's offline devices", async () => {
    const { portal, ids } = await portalWith([0, 1, 0]);
    const res = await createAlert({ customerId: portal.id, alertType: 0 }, cast.pm.token);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      customerId: portal.id,
      customerName: portal.name,
      tenantName: cast.tenant.name,
      alertType: 0,
      offlineCount: 2,
      status: 1,
      createdAt: t.clock.now().toISOString(),
      resolvedAt: null,
      licenseId: null,
      ackedAt: null,
      ackedByName: null,
    });
    const devices = await t.call(alertEndpoints.devices, {
      params: { id: res.body.data.id },
      token: cast.salesman.token,
      query: { sort: ['id', 'ASC'] },
    });
    expect(devices.body.data.count).toBe(2);
    expect(devices.body.data.list.map((d) => [d.id, d.isInCase, d.caseId, d.status])).toEqual([
      [ids[0], false, null, 0],
      [ids[2], false, null, 0],
    ]);
  });

  it("adds the portal's offline devices no open alert holds to its open alert, one open alert per portal", async () => {
    const { portal, ids } = await portalWith([0, 1]);
    const first = (await createAlert({ customerId: portal.id, alertType: 0 })).body.data;
    expect(first).toMatchObject({ offlineCount: 1, status: 1 });
    // Nothing new offline: the same alert, unchanged.
    const same = await createAlert({ customerId: portal.id, alertType: 0 }, cast.pm.token);
    expect(same.status).toBe(201);
    expect(same.body.data).toMatchObject({ id: first.id, offlineCount: 1 });
    // A device that went offline since joins it; the one back online stays held.
    await setDeviceStatus(t, [ids[1]], 0);
    const [later] = await createDevices(t, portal, [{ status: 0 }]);
    await setDeviceStatus(t, [ids[0]], 1);
    const announced: unknown[] = [];
    const stop = t.deps.bus.subscribe(TOPICS.alertJoined, (e) => announced.push(e));
    const joined = await createAlert({ customerId: portal.id, alertType: 0 });
    expect(joined.body.data).toMatchObject({ id: first.id, offlineCount: 3, status: 1, createdAt: first.createdAt });
    // The live banner hears of the join, with the new count.
    await vi.waitFor(() =>
      expect(announced).toEqual([
        { tenantId: cast.tenant.id, alertId: first.id, portalId: portal.id, customerName: portal.name, alertType: 0, offlineCount: 3 },
      ]),
    );
    stop();
    const devices = await t.call(alertEndpoints.devices, {
      params: { id: first.id },
      token: cast.admin.token,
      query: { sort: ['id', 'ASC'] },
    });
    expect(devices.body.data.list.map((d) => d.id)).toEqual([ids[0], ids[1], later.id]);
    const open = await t.call(alertEndpoints.list, {
      token: cast.admin.token,
      query: { filter: { customerId: portal.id, alertType: 0 }, range: [0, 100] },
    });
    expect(open.body.data.list.map((a) => a.id)).toEqual([first.id]);
  });

  it('answers 422 and creates nothing when the portal has no offline device', async () => {
    const { portal, ids } = await portalWith([1, 1]);
    const none = await createAlert({ customerId: portal.id, alertType: 0 });
    expectError(none, 422, ALERT_MSG.noOfflineDevices);
    expect(none.body).toEqual({ error: { code: 'UNPROCESSABLE', msg: 'This portal has no offline devices.' } });
    // A removed offline device is not offline any more.
    await setDeviceStatus(t, [ids[0]], 0);
    await removeDevices(t, [ids[0]]);
    expectError(await createAlert({ customerId: portal.id, alertType: 0 }), 422, ALERT_MSG.noOfflineDevices);
    expectError(await createAlert({ customerId: (await portalWith([])).portal.id, alertType: 0 }), 422, ALERT_MSG.noOfflineDevices);
    const [count] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from alerts where portal_id = ${portal.id}`,
    );
    expect(count.n).toBe(0);
  });

  it('answers the product messages', async () => {
    const { portal } = await portalWith([0]);
    expectError(await createAlert({}), 400, MSG.selectCustomerForAlert);
    expectError(await createAlert({ alertType: 0 }), 400, MSG.selectCustomerForAlert);
    expectError(await createAlert({ customerId: null, alertType: 0 }), 400, MSG.selectCustomerForAlert);
    expectError(await createAlert({ customerId: '', alertType: 0 }), 400, MSG.selectCustomerForAlert);
    expectError(await createAlert({ customerId: portal.id }), 400, MSG.selectAlertType);
    expectError(await createAlert({ customerId: portal.id, alertType: null }), 400, MSG.selectAlertType);
    expectError(await createAlert({ customerId: portal.id, alertType: 2 }), 400, MSG.selectAlertType);
    expectError(await createAlert({ customerId: portal.id, alertType: 0, extra: true }), 400);
    expect((await createAlert({ customerId: String(portal.id), alertType: 0 })).status).toBe(201);
  });

  it('enforces roles and tenant isolation', async () => {
    const { portal } = await portalWith([0]);
    expectError(await createAlert({ customerId: portal.id, alertType: 0 }, cast.salesman.token), 403);
    expectError(await createAlert({ customerId: portal.id, alertType: 0 }, cast.superAdmin.token), 403, MSG.tenantOnly);
    expectError(await createAlert({ customerId: portal.id, alertType: 0 }, cast.otherAdmin.token), 404);
    expectError(await createAlert({ customerId: 999_999, alertType: 0 }), 404);
  });

  it('opens License Renewal Pending alerts by hand for licenses ending within 90 days', async () => {
    const { portal } = await portalWith([]);
    expectError(await createAlert({ customerId: portal.id, alertType: 1 }), 400, ALERT_MSG.noLicenseDue);
    const today = t.clock.now();
    const end = new Date(today.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    const start = `${Number(end.slice(0, 4)) - 1}${end.slice(4)}`;
    // Written directly, as a license imported before the rule existed: no alert yet.
    const [license] = await queryRows<{ id: number }>(
      t.database.db,
      sql`insert into licenses (tenant_id, portal_id, device_type, device_count, terms, start_date, end_date) values (${cast.tenant.id}, ${portal.id}, 0, 9, 1, ${start}::date, ${end}::date) returning id`,
    );
    const res = await createAlert({ customerId: portal.id, alertType: 1 }, cast.pm.token);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ alertType: 1, licenseId: license.id, offlineCount: 9, status: 1 });
    expectError(await createAlert({ customerId: portal.id, alertType: 1 }), 409, ALERT_MSG.licenseAlertsOpen);
    await t.call(licenseEndpoints.create, {
      params: { id: portal.id },
      token: cast.admin.token,
      body: { deviceType: 0, terms: 10, deviceCount: 1, startDate: '2026-01-01' },
    });
    expectError(await createAlert({ customerId: portal.id, alertType: 1 }), 409);
  });
});

describe('reading alerts', () => {
  it('lists newest first for the Alarms dropdown, filters, and keeps tenants apart', async () => {
    const portals: TestPortal[] = [];
    const created: number[] = [];
    for (let i = 0; i < 6; i++) {
      t.clock.advance(1_000);
      const portal = await createPortal(t, cast.tenant, `Quayside ${i}`);
      await createDevices(t, portal, [{ status: 0 }]);
      portals.push(portal);
      created.push((await createAlert({ customerId: portal.id, alertType: 0 })).body.data.id);
    }
    const portal = portals[0];
    const foreign = await portalWith([0], cast.other);
    const foreignAlert = (await createAlert({ customerId: foreign.portal.id, alertType: 0 }, cast.otherAdmin.token)).body.data;

    const recent = await t.call(alertEndpoints.list, { token: cast.salesman.token, query: { sort: ['createdAt', 'DESC'], range: [0, 5] } });
    expect(recent.status).toBe(200);
    expect(recent.body.data.list.map((a) => a.id)).toEqual(created.slice(1).reverse());
    expect(recent.body.data.count).toBeGreaterThan(5);
    expect(recent.body.data.list.every((a) => a.tenantName === cast.tenant.name)).toBe(true);

    const ofPortal = await t.call(alertEndpoints.list, {
      token: cast.admin.token,
      query: { filter: { customerId: portal.id, alertType: 0, status: 1 }, range: [0, 100] },
    });
    expect(ofPortal.body.data.list.map((a) => a.id)).toEqual([created[0]]);
    const byName = await t.call(alertEndpoints.list, { token: cast.admin.token, query: { filter: { q: 'QUAYSIDE' } } });
    expect(byName.body.data.count).toBe(6);
    const sorted = await t.call(alertEndpoints.list, {
      token: cast.admin.token,
      query: { sort: ['offlineCount', 'ASC'], range: [0, 100] },
    });
    const counts = sorted.body.data.list.map((a) => a.offlineCount);
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);

    const platform = await t.call(alertEndpoints.list, { token: cast.superAdmin.token, query: { range: [0, 1000] } });
    expect(platform.body.data.list.some((a) => a.id === foreignAlert.id && a.tenantName === cast.other.name)).toBe(true);
    expectError(await t.call(alertEndpoints.get, { params: { id: foreignAlert.id }, token: cast.admin.token }), 404);
    expectError(await t.call(alertEndpoints.devices, { params: { id: foreignAlert.id }, token: cast.admin.token }), 404);
    expect((await t.call(alertEndpoints.get, { params: { id: created[0] }, token: cast.pm.token })).body.data.id).toBe(created[0]);
    expect((await t.call(alertEndpoints.get, { params: { id: foreignAlert.id }, token: cast.superAdmin.token })).status).toBe(200);
    expectError(await t.call(alertEndpoints.list, { token: cast.admin.token, query: { sort: ['tenantId', 'ASC'] } }), 400);
    expectError(await t.call(alertEndpoints.list, { token: cast.admin.token, query: { range: '[0' as never } }), 400);
  });
});

describe('POST /alert-stats/:id/case-stats', () => {
  it("opens a case from the alert's offline devices not already in an open case", async () => {
    const { portal, ids } = await portalWith([0, 0, 0]);
    const alert = (await createAlert({ customerId: portal.id, alertType: 0 })).body.data;
    await setDeviceStatus(t, [ids[2]], 1);
    const [outside] = await createDevices(t, portal, [{ status: 0 }]);

    expectError(await t.call(alertEndpoints.createCase, { params: { id: alert.id }, token: cast.salesman.token, body: {} }), 403);
    expectError(
      await t.call(alertEndpoints.createCase, { params: { id: alert.id }, token: cast.superAdmin.token, body: {} }),
      403,
      MSG.tenantOnly,
    );
    expectError(await t.call(alertEndpoints.createCase, { params: { id: alert.id }, token: cast.otherAdmin.token, body: {} }), 404);

    const res = await t.call(alertEndpoints.createCase, { params: { id: alert.id }, token: cast.pm.token, body: {} });
    expect(res.status).toBe(201);
    const opened = res.body.data as { id: number };
    expect(res.body.data).toMatchObject({ customerId: portal.id, offlineCount: 2, alertId: alert.id, caseType: 0 });
    expect(await openCaseOf(t, ids[0])).toBe(opened.id);
    expect(await openCaseOf(t, ids[2])).toBeNull();
    expect(await openCaseOf(t, outside.id)).toBeNull();

    const devices = await t.call(alertEndpoints.devices, {
      params: { id: alert.id },
      token: cast.admin.token,
      query: { sort: ['id', 'ASC'] },
    });
    expect(devices.body.data.list.map((d) => [d.isInCase, d.caseId])).toEqual([
      [true, opened.id],
      [true, opened.id],
      [false, null],
    ]);
    const again = await t.call(alertEndpoints.createCase, { params: { id: alert.id }, token: cast.admin.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ data: { error: true, msg: MSG.noOfflineDevicesForCase } });
  });
});

describe('POST /alert-stats/:id/ack', () => {
  const ack = (id: number, token = cast.salesman.token) => t.call(alertEndpoints.ack, { params: { id }, token, body: {} });

  it('acknowledges an open alert with who and when; again keeps the first; any tenant role', async () => {
    const { portal } = await portalWith([0]);
    const alert = (await createAlert({ customerId: portal.id, alertType: 0 })).body.data;
    t.clock.advance(60_000);
    const ackedAt = t.clock.now().toISOString();
    const res = await ack(alert.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: alert.id, status: 1, resolvedAt: null, ackedAt, ackedByName: cast.salesman.name });
    t.clock.advance(60_000);
    const again = await ack(alert.id, cast.admin.token);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ ackedAt, ackedByName: cast.salesman.name });
    const [row] = await queryRows<{ by: number }>(t.database.db, sql`select acked_by_user_id as by from alerts where id = ${alert.id}`);
    expect(row.by).toBe(cast.salesman.id);
    // The list and the detail show it.
    expect((await t.call(alertEndpoints.get, { params: { id: alert.id }, token: cast.pm.token })).body.data).toMatchObject({
      ackedAt,
      ackedByName: cast.salesman.name,
    });
    const list = await t.call(alertEndpoints.list, { token: cast.admin.token, query: { filter: { customerId: portal.id } } });
    expect(list.body.data.list[0]).toMatchObject({ id: alert.id, ackedAt, ackedByName: cast.salesman.name });
    // Project Manager and Admin may too.
    for (const user of [cast.pm, cast.admin]) {
      const other = await portalWith([0]);
      const open = (await createAlert({ customerId: other.portal.id, alertType: 0 })).body.data;
      expect((await ack(open.id, user.token)).body.data).toMatchObject({ ackedByName: user.name });
    }
  });

  it('refuses the superAdmin, hides other tenants, and refuses a resolved alert nobody acknowledged', async () => {
    const { portal, ids } = await portalWith([0]);
    const alert = (await createAlert({ customerId: portal.id, alertType: 0 })).body.data;
    expectError(await ack(alert.id, cast.superAdmin.token), 403, MSG.tenantOnly);
    expectError(await ack(alert.id, cast.otherAdmin.token), 404);
    expectError(await ack(999_999), 404);
    expectError(await t.call(alertEndpoints.ack, { params: { id: alert.id }, token: cast.salesman.token, body: { ackedBy: 1 } }), 400);
    expect((await t.call(alertEndpoints.get, { params: { id: alert.id }, token: cast.admin.token })).body.data.ackedAt).toBeNull();

    await setDeviceStatus(t, [ids[0]], 1);
    await applyOfflineAlertRules(t.deps, t.clock.now());
    expect((await t.call(alertEndpoints.get, { params: { id: alert.id }, token: cast.admin.token })).body.data.status).toBe(0);
    expectError(await ack(alert.id), 409, ALERT_MSG.ackResolved);

    // Acknowledged while open, then resolved: acknowledging again answers the first acknowledgment.
    const second = await portalWith([0]);
    const open = (await createAlert({ customerId: second.portal.id, alertType: 0 })).body.data;
    const first = (await ack(open.id)).body.data;
    await setDeviceStatus(t, second.ids, 1);
    await applyOfflineAlertRules(t.deps, t.clock.now());
    const late = await ack(open.id, cast.admin.token);
    expect(late.status).toBe(200);
    expect(late.body.data).toMatchObject({ status: 0, ackedAt: first.ackedAt, ackedByName: cast.salesman.name });
  });
});

import { alertEndpoints, caseEndpoints, deviceEndpoints, portalEndpoints, statsEndpoints } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from './client.ts';
import { sweepOfflineDevices } from '../modules/devices/index.ts';
import { createCast, createPortal, type TestPortal } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { removed, reported, sendWebhook } from '../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * The kept counts (db/schema/counts.ts, kept by triggers) must always equal a fresh count: after
 * every kind of write (ingestion, offline sweep, removal, return, hard delete, case and alert
 * changes, a deleted portal or tenant) the lists' totals, the portal counts and the Pulse numbers
 * are compared with counts computed from the rows themselves.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let south: TestPortal;
let otherPortal: TestPortal;
const START = new Date('2026-11-22T06:00:00.000Z');
const MIN = 60_000;
const at = (minutes: number) => new Date(START.getTime() + minutes * MIN);

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(at(0));
  cast = await createCast(t);
  await t.database.exec(`update tenants set heartbeat_timeout = 10 where id in (${cast.tenant.id}, ${cast.other.id})`);
  north = await createPortal(t, cast.tenant, 'North');
  south = await createPortal(t, cast.tenant, 'South');
  otherPortal = await createPortal(t, cast.other, 'Elsewhere');
});
afterAll(() => t.close());

interface Fresh {
  portal_id: number;
  device_type: number;
  total: number;
  online: number;
}

/** Per live portal and type, counted from the devices themselves (no RLS: the test's own connection). */
async function freshDeviceCounts(tenantId: number): Promise<Fresh[]> {
  return queryRows<Fresh>(
    t.database.db,
    sql`select d.portal_id, d.device_type, count(*)::int as total, count(*) filter (where d.status = 1)::int as online
          from devices d join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id and p.deleted_at is null
          join tenants tn on tn.id = d.tenant_id and tn.deleted_at is null
         where d.tenant_id = ${tenantId} and d.removed_at is null
         group by 1, 2 order by 1, 2`,
  );
}

const sum = (rows: Fresh[], pick: (r: Fresh) => number) => rows.reduce((n, r) => n + pick(r), 0);

/** Every figure the API derives from the kept device counts equals the fresh count. */
async function expectDeviceCountsFresh(user = cast.admin) {
  const fresh = await freshDeviceCounts(user.tenantId);
  const total = sum(fresh, (r) => r.total);
  const online = sum(fresh, (r) => r.online);
  const devices = async (filter: Record<string, unknown>) =>
    (await t.call(deviceEndpoints.list, { token: user.token, query: { filter } })).body.data.count;
  expect(await devices({})).toBe(total);
  expect(await devices({ status: 1 })).toBe(online);
  expect(await devices({ status: 0 })).toBe(total - online);
  for (const portal of [north, south]) {
    const ofPortal = fresh.filter((r) => r.portal_id === portal.id);
    expect(await devices({ customerId: portal.id })).toBe(sum(ofPortal, (r) => r.total));
    expect(await devices({ customerId: portal.id, deviceType: 0, status: 0 })).toBe(
      sum(
        ofPortal.filter((r) => r.device_type === 0),
        (r) => r.total - r.online,
      ),
    );
  }
  const summary = (await t.call(statsEndpoints.pulseSummary, { token: user.token })).body.data;
  expect({ online: summary.onlineCount, offline: summary.offlineCount }).toEqual({ online, offline: total - online });
  const byType = (await t.call(statsEndpoints.deviceTypeTotals, { token: user.token })).body.data;
  expect(byType.map((r) => r.totalCount)).toEqual(
    [0, 1, 2, 3, 4].map((ty) =>
      sum(
        fresh.filter((r) => r.device_type === ty),
        (r) => r.total,
      ),
    ),
  );
  const portals = (await t.call(portalEndpoints.list, { token: user.token, query: { sort: ['name', 'ASC'] } })).body.data.list;
  for (const p of portals) {
    const ofPortal = fresh.filter((r) => r.portal_id === p.id);
    const ofType = (ty: number) =>
      sum(
        ofPortal.filter((r) => r.device_type === ty),
        (r) => r.total,
      );
    expect([p.cameraCount, p.intercomCount, p.accessCount, p.alarmCount, p.environmentalCount]).toEqual([0, 1, 2, 3, 4].map(ofType));
  }
  // The table itself: no drift hidden by a reader (rows of deleted portals included, all-zero rows ignored).
  const kept = await queryRows<{ n: number }>(
    t.database.db,
    sql`select coalesce(sum(camera_total + intercom_total + access_total + alarm_total + environmental_total), 0)::int as n from device_counts where tenant_id = ${user.tenantId}`,
  );
  const all = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from devices where tenant_id = ${user.tenantId} and removed_at is null`,
  );
  expect(kept[0].n).toBe(all[0].n);
}

describe('kept device counts', () => {
  it('follow ingestion: new devices, status changes both ways, reports that change nothing', async () => {
    const send = async (portal: TestPortal, devices: Parameters<typeof reported>[0]) =>
      expect((await sendWebhook(t, portal, reported(devices))).status).toBe(202);
    await send(north, [
      { externalId: 'cam-1', deviceType: 0, status: 1, at: at(0) },
      { externalId: 'cam-2', deviceType: 0, status: 1, at: at(0) },
      { externalId: 'door', deviceType: 2, status: 0, at: at(0) },
    ]);
    await send(south, [
      { externalId: 'bell', deviceType: 1, status: 1, at: at(0) },
      { externalId: 'smoke', deviceType: 4, status: 1, at: at(0) },
    ]);
    await send(otherPortal, [{ externalId: 'cam-x', deviceType: 0, status: 1, at: at(0) }]);
    await expectDeviceCountsFresh();
    t.clock.set(at(1));
    await send(north, [
      { externalId: 'cam-1', deviceType: 0, status: 0, at: at(1) },
      { externalId: 'door', deviceType: 2, status: 1, at: at(1) },
    ]);
    await send(south, [{ externalId: 'bell', deviceType: 1, status: 1, at: at(1) }]);
    await expectDeviceCountsFresh();
    await expectDeviceCountsFresh(cast.otherAdmin);
  });

  it('follow the offline sweep', async () => {
    t.clock.set(at(5));
    await sendWebhook(t, north, reported([{ externalId: 'cam-2', deviceType: 0, status: 1, at: at(5) }]));
    t.clock.set(at(12));
    expect(await sweepOfflineDevices(t.deps, t.clock.now())).toBeGreaterThan(0);
    await expectDeviceCountsFresh();
    await expectDeviceCountsFresh(cast.otherAdmin);
  });

  it('follow a removed device, its return, and a hard delete', async () => {
    t.clock.set(at(13));
    expect((await sendWebhook(t, south, removed('smoke'))).status).toBe(202);
    await expectDeviceCountsFresh();
    t.clock.set(at(14));
    await sendWebhook(t, south, reported([{ externalId: 'smoke', deviceType: 4, status: 1, at: at(14) }]));
    await expectDeviceCountsFresh();
    await t.database.exec(`delete from device_status_periods where device_id in (select id from devices where external_id = 'door');
                           delete from devices where external_id = 'door'`);
    await expectDeviceCountsFresh();
  });

  it('leave out a deleted portal, and a deleted tenant', async () => {
    await t.database.exec(`update portals set deleted_at = now() where id = ${south.id}`);
    await expectDeviceCountsFresh();
    const devices = (await t.call(deviceEndpoints.list, { token: cast.admin.token, query: { range: [0, 99] } })).body.data;
    expect(devices.list.every((d) => d.customerId === north.id)).toBe(true);
    await t.database.exec(`update portals set deleted_at = null where id = ${south.id}`);
    await expectDeviceCountsFresh();
    await t.database.exec(`update tenants set deleted_at = now() where id = ${cast.other.id}`);
    const all = (await t.call(deviceEndpoints.list, { token: cast.superAdmin.token, query: { range: [0, 1000] } })).body.data;
    expect(all.count).toBe((await freshDeviceCounts(cast.tenant.id)).reduce((n, r) => n + r.total, 0));
    expect(all.list).toHaveLength(all.count);
    // A page exactly as long as the list: a deleted tenant's rows must be skipped before the limit.
    const exact = (await t.call(deviceEndpoints.list, { token: cast.superAdmin.token, query: { range: [0, all.count] } })).body.data;
    expect(exact.list.map((d) => d.id)).toEqual(all.list.map((d) => d.id));
    expect(all.list.every((d) => d.customerId !== otherPortal.id)).toBe(true);
    const lastOne = (await t.call(deviceEndpoints.list, { token: cast.superAdmin.token, query: { range: [all.count - 1, 10] } })).body.data;
    expect(lastOne.list.map((d) => d.id)).toEqual([all.list.at(-1)!.id]);
    await t.database.exec(`update tenants set deleted_at = null where id = ${cast.other.id}`);
  });
});

describe('kept case and alert counts', () => {
  async function freshTotal(table: 'cases' | 'alerts', cond: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql.raw(`select count(*)::int as n from ${table} x join portals p on p.tenant_id = x.tenant_id and p.id = x.portal_id and p.deleted_at is null
                where x.tenant_id = ${cast.tenant.id} and ${cond}`),
    );
    return row.n;
  }

  it('follow case creation and status changes, and alerts opened by hand', async () => {
    // Offline devices to hold: cam-1 and cam-2 went offline above.
    const created = await t.call(caseEndpoints.create, { token: cast.admin.token, params: { id: north.id }, body: {} });
    expect(created.status).toBe(201);
    const caseId = (created.body.data as { id: number }).id;
    for (let i = 0; i < 3; i++) {
      expect(
        (await t.call(alertEndpoints.create, { token: cast.admin.token, body: { customerId: i % 2 ? south.id : north.id, alertType: 0 } }))
          .status,
      ).toBe(201);
    }
    const cases = async (filter: Record<string, unknown>) =>
      (await t.call(caseEndpoints.list, { token: cast.admin.token, query: { filter } })).body.data.count;
    const alerts = async (filter: Record<string, unknown>) =>
      (await t.call(alertEndpoints.list, { token: cast.admin.token, query: { filter } })).body.data.count;
    const check = async () => {
      expect(await cases({})).toBe(await freshTotal('cases', 'true'));
      expect(await cases({ open: true })).toBe(await freshTotal('cases', 'x.case_type < 4'));
      expect(await cases({ caseType: 2 })).toBe(await freshTotal('cases', 'x.case_type = 2'));
      expect(await cases({ q: 'nor' })).toBe(await freshTotal('cases', `p.name ilike '%nor%'`));
      const sumup = (await t.call(caseEndpoints.sumup, { token: cast.admin.token })).body.data.list;
      for (const { caseType, count } of sumup) expect(count).toBe(await freshTotal('cases', `x.case_type = ${caseType}`));
      expect(await alerts({})).toBe(await freshTotal('alerts', 'true'));
      expect(await alerts({ customerId: south.id, alertType: 0 })).toBe(
        await freshTotal('alerts', `x.portal_id = ${south.id} and x.alert_type = 0`),
      );
    };
    await check();
    expect((await t.call(caseEndpoints.update, { token: cast.admin.token, params: { id: caseId }, body: { caseType: 2 } })).status).toBe(
      200,
    );
    await check();
    expect((await t.call(caseEndpoints.update, { token: cast.admin.token, params: { id: caseId }, body: { caseType: 4 } })).status).toBe(
      200,
    );
    await check();
    await t.database.exec(`update portals set deleted_at = now() where id = ${south.id}`);
    await check();
    await t.database.exec(`update portals set deleted_at = null where id = ${south.id}`);
  });
});

describe('kept portal counts', () => {
  /** The Customers list's total in its default order (the kept count) against the tenant's live portals counted afresh. */
  async function expectPortalTotalFresh() {
    for (const tenantId of [cast.tenant.id, cast.other.id]) {
      const user = tenantId === cast.tenant.id ? cast.admin : cast.otherAdmin;
      const [fresh] = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from portals where tenant_id = ${tenantId} and deleted_at is null`,
      );
      const listed = (await t.call(portalEndpoints.list, { token: user.token, query: { range: [0, 1] } })).body.data;
      expect(listed.count).toBe(fresh.n);
      expect(listed.list).toHaveLength(fresh.n > 0 ? 1 : 0);
    }
  }

  it('follow portals created, deleted, brought back and removed', async () => {
    await expectPortalTotalFresh();
    const created = await t.call(portalEndpoints.create, { token: cast.admin.token, body: { name: 'West', apiKey: 'west-key' } });
    expect(created.status).toBe(201);
    await expectPortalTotalFresh();
    await t.database.exec(`update portals set deleted_at = now() where id = ${north.id}`);
    await expectPortalTotalFresh();
    // A change that leaves a portal as it was (live and renamed; deleted and deleted again) counts nothing.
    await t.database.exec(`update portals set name = 'South side' where id = ${south.id}`);
    await t.database.exec(`update portals set deleted_at = now() + interval '1 second' where id = ${north.id}`);
    await expectPortalTotalFresh();
    await t.database.exec(`update portals set deleted_at = null where id = ${north.id}`);
    await expectPortalTotalFresh();
    const westId = (created.body.data as { id: number }).id;
    await t.database.exec(`delete from portals where id = ${westId}`);
    await expectPortalTotalFresh();
    await t.database.exec(`update portals set name = 'South' where id = ${south.id}`);
  });
});

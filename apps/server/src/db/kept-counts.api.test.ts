import {
  DEVICE_STATUS,
  alertEndpoints,
  caseEndpoints,
  deviceEndpoints,
  portalEndpoints,
  statsEndpoints,
  type Endpoint,
} from '@vigil/contracts';
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

describe('pages read from the end', () => {
  it('answer the last pages exactly as the whole list in order does, in every order', async () => {
    // Within the access token's lifetime (the clock started at 0).
    t.clock.set(at(14.2));
    const many = Array.from({ length: 23 }, (_, i) => ({
      externalId: `bulk-${i}`,
      name: `Bulk ${String(i % 7)}`,
      deviceType: i % 5,
      status: i % 3 ? DEVICE_STATUS.online : DEVICE_STATUS.offline,
      at: at(14.2),
    }));
    await sendWebhook(t, north, reported(many));
    for (let i = 0; i < 12; i++) {
      t.clock.set(at(14.3 + i / 100));
      await t.call(alertEndpoints.create, { token: cast.admin.token, body: { customerId: north.id, alertType: 0 } });
    }
    const sorts: [Endpoint, unknown[] | undefined][] = [
      [deviceEndpoints.list, undefined],
      [deviceEndpoints.list, ['name', 'DESC']],
      [deviceEndpoints.list, ['lastOnline', 'ASC']],
      [deviceEndpoints.list, ['deviceType', 'DESC']],
      [alertEndpoints.list, undefined],
      [alertEndpoints.list, ['createdAt', 'ASC']],
      [alertEndpoints.list, ['offlineCount', 'DESC']],
      [caseEndpoints.list, undefined],
    ];
    for (const [endpoint, sort] of sorts) {
      const query = (range: [number, number]) => ({ range, ...(sort ? { sort } : {}) });
      const res = await t.call(endpoint as typeof deviceEndpoints.list, { token: cast.admin.token, query: query([0, 1000]) as never });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const whole = res.body.data;
      const ids = whole.list.map((r) => r.id);
      expect(ids.length).toBe(whole.count);
      for (const from of [whole.count - 10, whole.count - 3, Math.floor(whole.count / 2), whole.count - 1]) {
        if (from < 0) continue;
        const page = (await t.call(endpoint as typeof deviceEndpoints.list, { token: cast.admin.token, query: query([from, 10]) as never }))
          .body.data;
        expect(
          page.list.map((r) => r.id),
          `${endpoint.path} ${JSON.stringify(sort)} from ${from}`,
        ).toEqual(ids.slice(from, from + 10));
      }
    }
  });
});

describe('later pages asked with their total in one statement', () => {
  /** Every page of `size` rows from offset 1 on equals that slice of the whole list, with the whole list's count. */
  async function expectEveryPage(endpoint: Endpoint, token: string, extra: Record<string, unknown>, size: number) {
    const ask = async (range: [number, number]) => {
      const res = await t.call(endpoint as typeof deviceEndpoints.list, { token, query: { range, ...extra } as never });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const whole = await ask([0, 1000]);
    const ids = whole.list.map((r) => r.id);
    expect(ids.length).toBe(whole.count);
    for (let from = 1; from <= whole.count + 1; from++) {
      const page = await ask([from, size]);
      expect(
        page.list.map((r) => r.id),
        `${endpoint.path} ${JSON.stringify(extra)} [${from}, ${size}]`,
      ).toEqual(ids.slice(from, from + size));
      expect(page.count).toBe(whole.count);
    }
    return ids;
  }

  const lists: [Endpoint, Record<string, unknown>][] = [
    [deviceEndpoints.list, {}],
    [deviceEndpoints.list, { sort: ['lastOnline', 'DESC'] }],
    [deviceEndpoints.list, { filter: { status: DEVICE_STATUS.online } }],
    [deviceEndpoints.list, { filter: { customerId: 0, deviceType: 1 } }],
    [alertEndpoints.list, {}],
    [alertEndpoints.list, { sort: ['createdAt', 'ASC'] }],
    [alertEndpoints.list, { filter: { alertType: 0 } }],
    [caseEndpoints.list, {}],
    [caseEndpoints.list, { filter: { open: true } }],
  ];
  const withPortal = (extra: Record<string, unknown>) =>
    JSON.parse(JSON.stringify(extra).replace('"customerId":0', `"customerId":${north.id}`)) as Record<string, unknown>;

  it('answer every page from either end as the whole list does, for a tenant and for the superAdmin', async () => {
    t.clock.set(at(14.5));
    for (const [endpoint, extra] of lists) {
      for (const size of [10, 3]) await expectEveryPage(endpoint, cast.admin.token, withPortal(extra), size);
      await expectEveryPage(endpoint, cast.superAdmin.token, withPortal(extra), 7);
    }
  });

  it('leave out a deleted portal (asked in two rounds then) and follow rows added and removed', async () => {
    t.clock.set(at(14.6));
    const before = await expectEveryPage(alertEndpoints.list, cast.admin.token, {}, 10);
    await t.database.exec(`update portals set deleted_at = now() where id = ${south.id}`);
    try {
      for (const [endpoint, extra] of lists) {
        const ids = await expectEveryPage(endpoint, cast.admin.token, withPortal(extra), 10);
        const rows = (
          await t.call(endpoint as typeof deviceEndpoints.list, {
            token: cast.admin.token,
            query: { range: [0, 1000], ...withPortal(extra) } as never,
          })
        ).body.data.list as { customerId: number }[];
        expect(rows.every((r) => r.customerId !== south.id)).toBe(true);
        expect(ids.length).toBe(rows.length);
      }
    } finally {
      await t.database.exec(`update portals set deleted_at = null where id = ${south.id}`);
    }
    // A new alert is counted and shifts every later page by one; removing it shifts them back.
    await t.database.exec(
      `insert into alerts (tenant_id, portal_id, alert_type, offline_count, created_at, updated_at)
       values (${cast.tenant.id}, ${north.id}, 1, 0, now(), now())`,
    );
    // Pages asked before anything read the new total: the end is chosen from the total last seen,
    // the rows still follow the new one.
    const ask = async (from: number) =>
      (await t.call(alertEndpoints.list, { token: cast.admin.token, query: { range: [from, 10] } })).body.data.list.map((r) => r.id);
    const stale = [await ask(before.length - 2), await ask(before.length), await ask(1)];
    const added = await expectEveryPage(alertEndpoints.list, cast.admin.token, {}, 10);
    expect(stale).toEqual([added.slice(before.length - 2), added.slice(before.length), added.slice(1, 11)]);
    expect(added.slice(1)).toEqual(before);
    await t.database.exec(`delete from alerts where tenant_id = ${cast.tenant.id} and id = ${added[0]}`);
    expect(await ask(added.length - 3)).toEqual(added.slice(added.length - 2));
    expect(await expectEveryPage(alertEndpoints.list, cast.admin.token, {}, 10)).toEqual(added.slice(1));
    // The other tenant's list holds none of these rows.
    const others = await expectEveryPage(alertEndpoints.list, cast.otherAdmin.token, {}, 10);
    expect(others.filter((id) => added.includes(id))).toEqual([]);
  });
});

describe('id marks', () => {
  /** The marks (non-zero rows) equal a fresh count of the table's rows per tenant and block of 1,024 ids. */
  async function expectMarksFresh(table: 'cases' | 'alerts') {
    const fresh = await queryRows<{ tenant_id: number; bucket: number; total: number }>(
      t.database.db,
      sql.raw(`select tenant_id, id >> 10 as bucket, count(*)::int as total from ${table} group by 1, 2 order by 1, 2`),
    );
    const kept = await queryRows<{ tenant_id: number; bucket: number; total: number }>(
      t.database.db,
      sql.raw(`select tenant_id, bucket, total from ${table === 'cases' ? 'case' : 'alert'}_id_marks where total <> 0 order by 1, 2`),
    );
    expect(kept).toEqual(fresh);
  }

  it('follow inserts and deletes over many blocks, and find every later page through them', async () => {
    t.clock.set(at(14.7));
    // Ids spread over several blocks, both tenants' rows in the same blocks.
    const ids = [1500, 1501, 2047, 2048, 3000, 3001, 3002, 5000, 9000, 9001, 9002, 9003, 9004];
    // (id, tenant, portal, type, offline count, created, updated): the columns both tables share here.
    const values = (tenantId: number, portalId: number, shift: number) =>
      ids.map((id) => `(${id + shift}, ${tenantId}, ${portalId}, 0, 0, now(), now())`).join(', ');
    await t.database.exec(
      `insert into alerts (id, tenant_id, portal_id, alert_type, offline_count, created_at, updated_at)
         values ${values(cast.tenant.id, north.id, 0)}, ${values(cast.other.id, otherPortal.id, 7)};
       insert into cases (id, tenant_id, portal_id, case_type, offline_count, created_at, updated_at)
         values ${values(cast.tenant.id, south.id, 0)}, ${values(cast.other.id, otherPortal.id, 7)}`,
    );
    await expectMarksFresh('alerts');
    await expectMarksFresh('cases');
    for (const endpoint of [alertEndpoints.list, caseEndpoints.list] as Endpoint[]) {
      for (const user of [cast.admin, cast.otherAdmin]) {
        const ask = async (range: [number, number]) =>
          (await t.call(endpoint as typeof alertEndpoints.list, { token: user.token, query: { range } })).body.data;
        const whole = await ask([0, 1000]);
        const all = whole.list.map((r) => r.id);
        expect(all.length).toBe(whole.count);
        for (let from = 1; from <= whole.count; from++) {
          const page = await ask([from, 4]);
          expect(
            page.list.map((r) => r.id),
            `${endpoint.path} [${from}, 4]`,
          ).toEqual(all.slice(from, from + 4));
          expect(page.count).toBe(whole.count);
        }
      }
    }
    await t.database.exec(`delete from alerts where id in (2047, 3001, 9007); delete from cases where id in (1500, 9000, 9011)`);
    await expectMarksFresh('alerts');
    await expectMarksFresh('cases');
    const whole = (await t.call(alertEndpoints.list, { token: cast.admin.token, query: { range: [0, 1000] } })).body.data;
    for (const from of [1, 5, whole.count - 3]) {
      const page = (await t.call(alertEndpoints.list, { token: cast.admin.token, query: { range: [from, 4] } })).body.data;
      expect(page.list.map((r) => r.id)).toEqual(whole.list.slice(from, from + 4).map((r) => r.id));
    }
  });
});

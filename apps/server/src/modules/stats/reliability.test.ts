import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, deviceStatusPeriods, lateDeviceReports } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { createPortal, createTenant, type TestPortal, type TestTenant } from '../../../test/factories.ts';
import { dailyOnlineShare, reliabilityByPortal, reliabilityOfTenant, topOfflineDevices } from './reliability.repository.ts';

// A fixed 10-hour window keeps every expected value computable by hand.
const FROM = new Date('2026-03-01T00:00:00Z');
const TO = new Date('2026-03-01T10:00:00Z');
const at = (hours: number) => new Date(FROM.getTime() + hours * 3_600_000);

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t);
});
afterAll(() => t.close());

/** A device whose history is the given periods ([status, startHour, endHour | null]). */
async function deviceWith(portal: TestPortal, periods: [0 | 1, number, number | null][], removedAtHour?: number) {
  const first = at(periods[0][1]);
  const last = periods.at(-1)!;
  const [row] = await t.database.db
    .insert(devices)
    .values({
      tenantId: portal.tenantId,
      portalId: portal.id,
      externalId: `ext-${Math.random()}`,
      name: `Device ${Math.random().toString(36).slice(2, 7)}`,
      deviceType: 1,
      status: last[0],
      lastReportAt: at(last[1]),
      statusSince: at(last[1]),
      firstSeenAt: first,
      removedAt: removedAtHour === undefined ? null : at(removedAtHour),
    })
    .returning({ id: devices.id });
  await t.database.db.insert(deviceStatusPeriods).values(
    periods.map(([status, s, e]) => ({
      tenantId: portal.tenantId,
      portalId: portal.id,
      deviceId: row.id,
      status,
      startedAt: at(s),
      endedAt: e === null ? null : at(e),
    })),
  );
  return row.id;
}

describe('reliabilityByPortal', () => {
  it('clips periods crossing both edges of the window and ends open periods at `to`', async () => {
    const portal = await createPortal(t, tenant);
    // online from 2 h before the window to hour 4, offline 4..6, online from 6 (open): 8 h online of 10.
    await deviceWith(portal, [
      [1, -2, 4],
      [0, 4, 6],
      [1, 6, null],
    ]);
    const scores = await reliabilityByPortal(t.database.db, { tenantId: tenant.id, from: FROM, to: TO });
    expect(scores.get(portal.id)).toBe(80);
  });

  it('observes a device added mid-window only from its first report', async () => {
    const portal = await createPortal(t, tenant);
    await deviceWith(portal, [[1, -5, null]]); // 10 h online
    await deviceWith(portal, [
      [1, 7, 8],
      [0, 8, null],
    ]); // added at 7: 1 h online, 2 h offline
    // (10 + 1) / (10 + 3) = 84.615... -> 84.6
    const scores = await reliabilityByPortal(t.database.db, { tenantId: tenant.id, portalIds: [portal.id], from: FROM, to: TO });
    expect(scores.get(portal.id)).toBe(84.6);
  });

  it('rounds half up to one decimal', async () => {
    const portal = await createPortal(t, tenant);
    // 1/8 offline of an 8 h span = 87.5 exactly; 7 of 16 device-hours online over two devices = 43.75 -> 43.8
    await deviceWith(portal, [
      [1, 2, 9],
      [0, 9, null],
    ]); // 7 h online of 8
    await deviceWith(portal, [[0, 2, null]]); // 8 h offline
    const scores = await reliabilityByPortal(t.database.db, { tenantId: tenant.id, portalIds: [portal.id], from: FROM, to: TO });
    expect(scores.get(portal.id)).toBe(43.8);
  });

  it('answers -1 for a portal with nothing observed in the window', async () => {
    const empty = await createPortal(t, tenant);
    const before = await createPortal(t, tenant);
    await deviceWith(
      before,
      [
        [1, -9, -3],
        [0, -3, -1],
      ],
      -1,
    ); // history ended (removed) before the window
    const scores = await reliabilityByPortal(t.database.db, { tenantId: tenant.id, portalIds: [empty.id, before.id], from: FROM, to: TO });
    expect(scores.get(empty.id)).toBe(-1);
    expect(scores.get(before.id)).toBe(-1);
  });

  it('observes a removed device only until its removal', async () => {
    const portal = await createPortal(t, tenant);
    await deviceWith(
      portal,
      [
        [1, 0, 2],
        [0, 2, null],
      ],
      4,
    ); // removed at 4: 2 h on, 2 h off (not 8 h off)
    await deviceWith(portal, [[1, 0, null]]); // 10 h on
    // (2 + 10) / (4 + 10) = 85.714 -> 85.7
    const scores = await reliabilityByPortal(t.database.db, { tenantId: tenant.id, portalIds: [portal.id], from: FROM, to: TO });
    expect(scores.get(portal.id)).toBe(85.7);
  });

  it('ignores late reports: they never enter the periods', async () => {
    const portal = await createPortal(t, tenant);
    const id = await deviceWith(portal, [[1, 0, null]]);
    await t.database.db.insert(lateDeviceReports).values({ tenantId: tenant.id, deviceId: id, status: 0, reportedAt: at(3) });
    const scores = await reliabilityByPortal(t.database.db, { tenantId: tenant.id, portalIds: [portal.id], from: FROM, to: TO });
    expect(scores.get(portal.id)).toBe(100);
  });

  it("never counts another tenant's devices", async () => {
    const other = await createTenant(t);
    const portal = await createPortal(t, other);
    await deviceWith(portal, [[0, 0, null]]);
    const scores = await reliabilityByPortal(t.database.db, { tenantId: tenant.id, portalIds: [portal.id], from: FROM, to: TO });
    expect(scores.get(portal.id)).toBe(-1);
  });
});

describe('reliabilityOfTenant', () => {
  it('is the same ratio over all devices of the tenant, -1 when nothing observed', async () => {
    const own = await createTenant(t);
    expect(await reliabilityOfTenant(t.database.db, { tenantId: own.id, from: FROM, to: TO })).toBe(-1);
    const a = await createPortal(t, own);
    const b = await createPortal(t, own);
    await deviceWith(a, [
      [1, 0, 5],
      [0, 5, null],
    ]); // 5 on / 10
    await deviceWith(b, [[1, 0, null]]); // 10 on / 10
    await deviceWith(b, [[0, 6, null]]); // 0 on / 4
    // 15 / 24 = 62.5
    expect(await reliabilityOfTenant(t.database.db, { tenantId: own.id, from: FROM, to: TO })).toBe(62.5);
  });
});

describe('dailyOnlineShare', () => {
  it('splits periods at local midnights of the tenant time zone', async () => {
    const own = await createTenant(t);
    const portal = await createPortal(t, own);
    // Window: 2026-03-02 00:00 .. 2026-03-04 00:00 in UTC+1 (Europe/Paris, winter), i.e. 23:00Z..23:00Z.
    const from = new Date('2026-03-01T23:00:00Z');
    const to = new Date('2026-03-03T23:00:00Z');
    const hour = (h: number) => new Date(from.getTime() + h * 3_600_000);
    const [row] = await t.database.db
      .insert(devices)
      .values({
        tenantId: own.id,
        portalId: portal.id,
        externalId: 'x',
        name: 'Cam',
        deviceType: 0,
        status: 1,
        lastReportAt: hour(0),
        statusSince: hour(0),
        firstSeenAt: hour(0),
      })
      .returning({ id: devices.id });
    // Day 1: online 0..18, offline 18..30 (6 h on day 1, 6 h on day 2), online 30..open.
    await t.database.db.insert(deviceStatusPeriods).values([
      { tenantId: own.id, portalId: portal.id, deviceId: row.id, status: 1, startedAt: hour(0), endedAt: hour(18) },
      { tenantId: own.id, portalId: portal.id, deviceId: row.id, status: 0, startedAt: hour(18), endedAt: hour(30) },
      { tenantId: own.id, portalId: portal.id, deviceId: row.id, status: 1, startedAt: hour(30), endedAt: null },
    ]);
    const series = await dailyOnlineShare(t.database.db, { tenantId: own.id, portalId: portal.id, from, to, timezone: 'Europe/Paris' });
    expect(series).toEqual([
      { date: '2026-03-02', onlineShare: 75 },
      { date: '2026-03-03', onlineShare: 75 },
    ]);
    const empty = await createPortal(t, own);
    expect(await dailyOnlineShare(t.database.db, { tenantId: own.id, portalId: empty.id, from, to, timezone: 'Europe/Paris' })).toEqual([
      { date: '2026-03-02', onlineShare: -1 },
      { date: '2026-03-03', onlineShare: -1 },
    ]);
  });
});

describe('topOfflineDevices', () => {
  it('orders devices by offline seconds in the window', async () => {
    const own = await createTenant(t);
    const portal = await createPortal(t, own);
    const little = await deviceWith(portal, [
      [1, 0, 9],
      [0, 9, null],
    ]); // 1 h off
    const much = await deviceWith(portal, [
      [0, -4, 3],
      [1, 3, null],
    ]); // 3 h off in window
    await deviceWith(portal, [[1, 0, null]]); // never off
    const top = await topOfflineDevices(t.database.db, { tenantId: own.id, portalId: portal.id, from: FROM, to: TO, limit: 5 });
    expect(top.map((d) => [d.id, d.offlineSeconds])).toEqual([
      [much, 3 * 3600],
      [little, 3600],
    ]);
    const [first] = await t.database.db.select().from(devices).where(eq(devices.id, much));
    expect(top[0]).toMatchObject({ name: first.name, deviceType: 1 });
  });
});

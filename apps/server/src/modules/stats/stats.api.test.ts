import { caseEndpoints, liveEventsEndpoints, portalEndpoints, statsEndpoints } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devices, tenants } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { createCast, createDevices, createPortal, createUser, type TestPortal } from '../../../test/factories.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let portalA: TestPortal;
let portalB: TestPortal;
let otherPortal: TestPortal;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
  portalA = await createPortal(t, cast.tenant, 'Acme Logistics');
  portalB = await createPortal(t, cast.tenant, 'Bravo Storage');
  otherPortal = await createPortal(t, cast.other, 'Other Co');
  // Every factory device starts 24 h before the clock with one open period.
  await createDevices(t, portalA, [{ deviceType: 0 }, { deviceType: 0 }, { deviceType: 1, status: 0 }]);
  const [removed] = await createDevices(t, portalA, [{ deviceType: 3 }]);
  // Removed 12 h ago: observed (online) for its first 12 h only, never counted.
  await t.database.db
    .update(devices)
    .set({ removedAt: new Date(t.clock.now().getTime() - 12 * HOUR) })
    .where(eq(devices.id, removed.id));
  await createDevices(t, portalB, [{ deviceType: 4, status: 0 }]);
  await createDevices(t, otherPortal, [{ deviceType: 2 }, { deviceType: 2, status: 0 }, { deviceType: 2, status: 0 }]);
});
afterAll(() => t.close());

const tenantUsers = () => [cast.admin, cast.pm, cast.salesman];

describe('GET /device-summary/sumup', () => {
  it('counts the tenant online/offline devices (removed excluded) and its 30-day reliability, for every tenant role', async () => {
    for (const user of tenantUsers()) {
      const res = await t.call(statsEndpoints.pulseSummary, { token: user.token });
      expect(res.status, user.roles[0]).toBe(200);
      // online: 2 cameras x 24 h + removed alarm 12 h = 60 h of 4 x 24 + 12 = 108 h -> 55.6
      expect(res.body.data).toEqual({ onlineCount: 2, offlineCount: 2, avgReliabilityScore: 55.6, goalScore: 95 });
    }
  });

  it('takes an explicit window', async () => {
    const to = t.clock.now();
    const from = new Date(to.getTime() - 6 * HOUR);
    const res = await t.call(statsEndpoints.pulseSummary, {
      token: cast.admin.token,
      query: { from: from.toISOString(), to: to.toISOString() },
    });
    // last 6 h: 2 cameras online, 2 offline, removed device not observed -> 50
    expect(res.body.data.avgReliabilityScore).toBe(50);
  });

  it('answers -1 when nothing was observed, and rejects a bad window', async () => {
    const res = await t.call(statsEndpoints.pulseSummary, { token: cast.admin.token, query: { to: '2020-01-01T00:00:00Z' } });
    expect(res.body.data.avgReliabilityScore).toBe(-1);
    const bad = await t.call(statsEndpoints.pulseSummary, { token: cast.admin.token, query: { from: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error!.msg).toContain('from and to must be ISO 8601 timestamps');
    const reversed = await t.call(statsEndpoints.pulseSummary, {
      token: cast.admin.token,
      query: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error!.msg).toContain('from must be before to');
  });

  it("answers the tenant's reliability goal to every role; the default 95 to the superAdmin", async () => {
    await t.database.db.update(tenants).set({ goalScore: 97.5 }).where(eq(tenants.id, cast.tenant.id));
    try {
      for (const user of tenantUsers()) {
        expect((await t.call(statsEndpoints.pulseSummary, { token: user.token })).body.data.goalScore, user.roles[0]).toBe(97.5);
      }
      expect((await t.call(statsEndpoints.pulseSummary, { token: cast.otherAdmin.token })).body.data.goalScore).toBe(95);
      expect((await t.call(statsEndpoints.pulseSummary, { token: cast.superAdmin.token })).body.data.goalScore).toBe(95);
    } finally {
      await t.database.db.update(tenants).set({ goalScore: 95 }).where(eq(tenants.id, cast.tenant.id));
    }
  });

  it('covers every tenant for the superAdmin, and refuses anonymous and tenantless callers', async () => {
    const all = await t.call(statsEndpoints.pulseSummary, { token: cast.superAdmin.token });
    expect(all.body.data).toMatchObject({ onlineCount: 3, offlineCount: 4 });
    expect((await t.call(statsEndpoints.pulseSummary)).status).toBe(401);
    const lonely = await createUser(t, { tenant: null, roles: [] });
    expect((await t.call(statsEndpoints.pulseSummary, { token: lonely.token })).status).toBe(403);
  });
});

describe('GET /device-stats/sumup', () => {
  it('lists all five types with zeros', async () => {
    for (const user of tenantUsers()) {
      const res = await t.call(statsEndpoints.deviceTypeTotals, { token: user.token });
      expect(res.body.data).toEqual([
        { deviceType: 0, totalCount: 2 },
        { deviceType: 1, totalCount: 1 },
        { deviceType: 2, totalCount: 0 },
        { deviceType: 3, totalCount: 0 },
        { deviceType: 4, totalCount: 1 },
      ]);
    }
    const all = await t.call(statsEndpoints.deviceTypeTotals, { token: cast.superAdmin.token });
    expect(all.body.data[2]).toEqual({ deviceType: 2, totalCount: 3 });
  });
});

describe('GET /device-stats', () => {
  it('pages one row per portal and type, with the total count', async () => {
    const res = await t.call(statsEndpoints.deviceStats, { token: cast.pm.token, query: { range: [0, 3] } });
    expect(res.body.data.count).toBe(10);
    expect(res.body.data.list).toEqual([
      { customerId: portalA.id, customerName: 'Acme Logistics', deviceType: 0, totalCount: 2, onlineCount: 2, offlineCount: 0 },
      { customerId: portalA.id, customerName: 'Acme Logistics', deviceType: 1, totalCount: 1, onlineCount: 0, offlineCount: 1 },
      { customerId: portalA.id, customerName: 'Acme Logistics', deviceType: 2, totalCount: 0, onlineCount: 0, offlineCount: 0 },
    ]);
    const past = await t.call(statsEndpoints.deviceStats, { token: cast.pm.token, query: { range: [50, 10] } });
    expect(past.body.data).toEqual({ list: [], count: 10 });
  });

  it('sorts and filters', async () => {
    const sorted = await t.call(statsEndpoints.deviceStats, {
      token: cast.admin.token,
      query: { sort: ['offlineCount', 'DESC'], range: [0, 2] },
    });
    expect(sorted.body.data.list.map((r) => [r.customerName, r.deviceType])).toEqual([
      ['Acme Logistics', 1],
      ['Bravo Storage', 4],
    ]);
    const byType = await t.call(statsEndpoints.deviceStats, { token: cast.admin.token, query: { filter: { deviceType: 4 } } });
    expect(byType.body.data.list.map((r) => [r.customerId, r.totalCount])).toEqual([
      [portalA.id, 0],
      [portalB.id, 1],
    ]);
    const byName = await t.call(statsEndpoints.deviceStats, { token: cast.admin.token, query: { filter: { q: 'bravo' } } });
    expect(byName.body.data.count).toBe(5);
    const byCustomer = await t.call(statsEndpoints.deviceStats, {
      token: cast.admin.token,
      query: { filter: { customerId: otherPortal.id } },
    });
    expect(byCustomer.body.data).toEqual({ list: [], count: 0 });
    const bad = await t.call(statsEndpoints.deviceStats, { token: cast.admin.token, query: { sort: ['secret', 'ASC'] } });
    expect(bad.status).toBe(400);
  });

  it('shows the tenant column to the superAdmin only', async () => {
    const all = await t.call(statsEndpoints.deviceStats, {
      token: cast.superAdmin.token,
      query: { filter: { tenantName: cast.other.name } },
    });
    expect(all.body.data.count).toBe(5);
    expect(all.body.data.list[0]).toMatchObject({ customerId: otherPortal.id, tenantName: cast.other.name });
    const own = await t.call(statsEndpoints.deviceStats, { token: cast.admin.token });
    expect(own.body.data.list[0]).not.toHaveProperty('tenantName');
  });
});

describe('GET /customers/:id/device-summary', () => {
  it("counts the portal's devices by type and status", async () => {
    for (const user of tenantUsers()) {
      const res = await t.call(statsEndpoints.customerDeviceSummary, { token: user.token, params: { id: portalA.id } });
      expect(res.body.data).toEqual({
        cameraCount: 2,
        intercomCount: 1,
        accessCount: 0,
        alarmCount: 0,
        environmentalCount: 0,
        offlineCount: 1,
        onlineCount: 2,
      });
    }
    const sa = await t.call(statsEndpoints.customerDeviceSummary, { token: cast.superAdmin.token, params: { id: otherPortal.id } });
    expect(sa.body.data).toMatchObject({ accessCount: 3, offlineCount: 2, onlineCount: 1 });
  });

  it("answers 404 for another tenant's portal exactly like a missing one", async () => {
    const foreign = await t.call(statsEndpoints.customerDeviceSummary, { token: cast.admin.token, params: { id: otherPortal.id } });
    const missing = await t.call(statsEndpoints.customerDeviceSummary, { token: cast.admin.token, params: { id: 999_999 } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
  });
});

describe('GET /customers/:id/stats', () => {
  it("answers counts, the portal's reliability and the tenant's goal", async () => {
    for (const user of tenantUsers()) {
      const res = await t.call(statsEndpoints.customerStats, { token: user.token, params: { id: portalA.id } });
      // (2 x 24 + 12) online of (3 x 24 + 12) observed = 60 / 84 = 71.43 -> 71.4
      expect(res.body.data).toEqual({ offlineCount: 1, onlineCount: 2, reliabilityScore: 71.4, goalScore: 95 });
    }
    const b = await t.call(statsEndpoints.customerStats, { token: cast.admin.token, params: { id: portalB.id } });
    expect(b.body.data).toEqual({ offlineCount: 1, onlineCount: 0, reliabilityScore: 0, goalScore: 95 });
    const windowed = await t.call(statsEndpoints.customerStats, {
      token: cast.admin.token,
      params: { id: portalA.id },
      query: { from: new Date(t.clock.now().getTime() - 6 * HOUR).toISOString() },
    });
    expect(windowed.body.data.reliabilityScore).toBe(66.7);
  });

  it("answers 404 for another tenant's portal; the superAdmin reads any", async () => {
    const foreign = await t.call(statsEndpoints.customerStats, { token: cast.salesman.token, params: { id: otherPortal.id } });
    expect(foreign.status).toBe(404);
    const sa = await t.call(statsEndpoints.customerStats, { token: cast.superAdmin.token, params: { id: otherPortal.id } });
    expect(sa.body.data).toMatchObject({ offlineCount: 2, onlineCount: 1, reliabilityScore: 33.3 });
  });
});

describe('Pulse reads', () => {
  it('run every statement prepared (planned once per database session, not at every call)', async () => {
    // The planning saved is most of a Pulse call on PGlite (3.3 ms of a 6.5 ms company-wide score at S).
    const rows = vi.spyOn(t.database.prepared, 'rows');
    try {
      const calls = [
        () => t.call(statsEndpoints.pulseSummary, { token: cast.admin.token }),
        () => t.call(statsEndpoints.deviceTypeTotals, { token: cast.admin.token }),
        () => t.call(statsEndpoints.deviceStats, { token: cast.admin.token }),
        () => t.call(statsEndpoints.customerDeviceSummary, { token: cast.admin.token, params: { id: portalA.id } }),
        () => t.call(statsEndpoints.customerStats, { token: cast.admin.token, params: { id: portalA.id } }),
        () => t.call(caseEndpoints.sumup, { token: cast.admin.token }),
        () => t.call(caseEndpoints.quarterCompleted, { token: cast.admin.token }),
        () => t.call(liveEventsEndpoints.list, { token: cast.admin.token }),
        () => t.call(portalEndpoints.list, { token: cast.admin.token }),
      ];
      for (const [i, call] of calls.entries()) {
        rows.mockClear();
        const res = await call();
        expect(res.status, `call ${i}`).toBe(200);
        expect(rows.mock.calls.length, `call ${i}`).toBeGreaterThan(0);
      }
    } finally {
      rows.mockRestore();
    }
  });
});

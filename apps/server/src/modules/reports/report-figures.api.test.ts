import { reportEndpoints as E, type ReportContent } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortal, createTenant, createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { caseAt, deviceWithHistory } from '../../../test/kits/reports/report.fixtures.ts';
import { historyKit, MAINTENANCE, prng } from '../../../test/kits/stats/history-test-kit.ts';

/**
 * Report figures against hand-computed fixtures. UTC tenant, now = Wed 2026-11-18 12:00Z:
 *  - "Cam A": online from 2026-01-01, offline since 2026-11-17 12:00 (still offline).
 *  - "Gate B": offline 2026-11-01 .. 2026-11-16 00:00, online since.
 * Week  (11-16 00:00 .. now, 60 h): online 36+60 of 120 h        = 80.0
 * Month (11-01 .. now, 420 h):      online 396+60 of 840 h       = 54.3
 * Quarter (10-01 .. now):           Cam A 1164 h (1140 on), Gate B 420 h (60 on) = 1200/1584 = 75.8
 * Year (01-01 .. now):              Cam A 7716 h (7692 on), Gate B 420 h (60 on) = 7752/8136 = 95.3
 * Cases of the portal: C1 New created 11-17; C2 In Progress created 11-05; C3 Completed created
 * 10-10, completed 11-16 10:00; C4 Completed created 03-01, completed 10-20; C5 Requires Testing
 * created 2025-12-20. Plus a case of another portal and of another tenant, never counted.
 */
const NOW = '2026-11-18T12:00:00.000Z';
const H = 3600;

let t: TestApp;
let admin: TestUser;
let nyAdmin: TestUser;
let portalId: number;
let nyPortalId: number;
let pierPortalId: number;
let pierY: number;

const preview = async (user: TestUser, customerId: number, period: number, config = [0, 1, 2]): Promise<ReportContent> => {
  const res = await t.call(E.preview, { token: user.token, body: { customerId, period, config } });
  expect(res.status).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  const tenant = await createTenant(t, { goalScore: 95 });
  admin = await createUser(t, { tenant, roles: ['Admin'] });
  const portal = await createPortal(t, tenant, 'Harbor Mall');
  portalId = portal.id;
  await deviceWithHistory(t, portal, 'Cam A', [
    { status: 1, from: '2026-01-01T00:00:00Z', to: '2026-11-17T12:00:00Z' },
    { status: 0, from: '2026-11-17T12:00:00Z' },
  ]);
  await deviceWithHistory(
    t,
    portal,
    'Gate B',
    [
      { status: 0, from: '2026-11-01T00:00:00Z', to: '2026-11-16T00:00:00Z' },
      { status: 1, from: '2026-11-16T00:00:00Z' },
    ],
    2,
  );
  await caseAt(t, portal, 0, '2026-11-17T08:00:00Z');
  await caseAt(t, portal, 1, '2026-11-05T08:00:00Z');
  await caseAt(t, portal, 4, '2026-10-10T08:00:00Z', '2026-11-16T10:00:00Z');
  await caseAt(t, portal, 4, '2026-03-01T08:00:00Z', '2026-10-20T08:00:00Z');
  await caseAt(t, portal, 3, '2025-12-20T08:00:00Z');
  const otherPortal = await createPortal(t, tenant, 'Elsewhere');
  await caseAt(t, otherPortal, 0, '2026-11-17T08:00:00Z');
  const other = await createTenant(t);
  await caseAt(t, await createPortal(t, other), 0, '2026-11-17T08:00:00Z');

  // Maintenance (status 2: not observed time, docs/stats-live.md "Reliability"), in a portal of its own:
  //  - X: online from 11-10, maintenance 11-15 20:00 .. 11-16 04:00 (across the week's start), online since.
  //  - Y: online from 11-10, offline 11-17 00:00 .. 06:00, maintenance since 06:00, removed at 12:00 mid-period.
  // Week: X 56 h online (4 h maintenance), Y 24 h online + 6 h offline (6 h maintenance): 80 / 86 = 93.0,
  //       maintenance 10 h. Month: X 196 h online (8 h maintenance), Y 168 h online + 6 h offline (6 h): 364 / 370
  //       = 98.4, maintenance 14 h.
  const pier = await createPortal(t, tenant, 'Pier Point');
  pierPortalId = pier.id;
  const kit = historyKit(() => t, prng(47));
  const ms = (text: string) => new Date(text).getTime();
  await kit.insertDevice(
    pier,
    [
      { status: 1, s: ms('2026-11-10T00:00:00Z'), e: ms('2026-11-15T20:00:00Z') },
      { status: MAINTENANCE, s: ms('2026-11-15T20:00:00Z'), e: ms('2026-11-16T04:00:00Z') },
      { status: 1, s: ms('2026-11-16T04:00:00Z'), e: null },
    ],
    null,
  );
  pierY = await kit.insertDevice(
    pier,
    [
      { status: 1, s: ms('2026-11-10T00:00:00Z'), e: ms('2026-11-17T00:00:00Z') },
      { status: 0, s: ms('2026-11-17T00:00:00Z'), e: ms('2026-11-17T06:00:00Z') },
      { status: MAINTENANCE, s: ms('2026-11-17T06:00:00Z'), e: null },
    ],
    ms('2026-11-17T12:00:00Z'),
  );

  // New York tenant: now is Sunday 15 Nov, 22:00 local; its week began Monday 9 Nov 00:00 EST.
  const ny = await createTenant(t, { timezone: 'America/New_York', goalScore: 90 });
  nyAdmin = await createUser(t, { tenant: ny, roles: ['Admin'] });
  const nyPortal = await createPortal(t, ny, 'Brooklyn Depot');
  nyPortalId = nyPortal.id;
  await deviceWithHistory(t, nyPortal, 'Door 1', [
    { status: 1, from: '2026-11-01T00:00:00Z', to: '2026-11-10T05:00:00Z' },
    { status: 0, from: '2026-11-10T05:00:00Z', to: '2026-11-11T05:00:00Z' },
    { status: 1, from: '2026-11-11T05:00:00Z' },
  ]);
  await caseAt(t, nyPortal, 0, '2026-11-09T04:00:00Z'); // Sunday 8 Nov 23:00 local: last week
  await caseAt(t, nyPortal, 2, '2026-11-09T06:00:00Z'); // Monday 9 Nov 01:00 local: this week
});
afterAll(() => t.close());

describe('report figures (hand-computed)', () => {
  it('This Week: window, cases by status, pulse and reliability', async () => {
    t.clock.set(NOW);
    const c = await preview(admin, portalId, 0);
    expect(c.period).toEqual({ code: 0, label: 'This Week', from: '2026-11-16T00:00:00.000Z', to: NOW, timezone: 'UTC' });
    expect(c.portal).toEqual({ id: portalId, name: 'Harbor Mall' });
    expect(c.openCases).toEqual({
      byStatus: [
        { caseType: 0, status: 'New', count: 1 },
        { caseType: 1, status: 'In Progress', count: 1 },
        { caseType: 2, status: 'Awaiting Delivery', count: 0 },
        { caseType: 3, status: 'Requires Testing', count: 1 },
        { caseType: 4, status: 'Completed', count: 1 },
      ],
      openAtEnd: 3,
      openedInPeriod: 1,
      completedInPeriod: 1,
    });
    expect(c.portalPulse).toEqual({
      onlineCount: 1,
      offlineCount: 1,
      daily: [
        { date: '2026-11-16', onlineShare: 100 },
        { date: '2026-11-17', onlineShare: 75 },
        { date: '2026-11-18', onlineShare: 50 },
      ],
    });
    expect(c.reliability).toEqual({
      score: 80,
      goal: 95,
      meetsGoal: false,
      topOfflineDevices: [expect.objectContaining({ name: 'Cam A', deviceType: 0, offlineSeconds: 24 * H })],
      maintenanceSeconds: 0,
    });
  });

  it('This Month', async () => {
    const c = await preview(admin, portalId, 1);
    expect(c.period.from).toBe('2026-11-01T00:00:00.000Z');
    expect(c.openCases).toMatchObject({ openAtEnd: 3, openedInPeriod: 2, completedInPeriod: 1 });
    expect(c.openCases!.byStatus.map((s) => s.count)).toEqual([1, 1, 0, 1, 1]);
    expect(c.reliability!.score).toBe(54.3);
    expect(c.reliability!.topOfflineDevices.map((d) => [d.name, d.offlineSeconds])).toEqual([
      ['Gate B', 360 * H],
      ['Cam A', 24 * H],
    ]);
    const daily = c.portalPulse!.daily;
    expect(daily).toHaveLength(18);
    expect(daily[0]).toEqual({ date: '2026-11-01', onlineShare: 50 });
    expect(daily.slice(-3).map((d) => d.onlineShare)).toEqual([100, 75, 50]);
  });

  it('This Quarter', async () => {
    const c = await preview(admin, portalId, 2);
    expect(c.period.from).toBe('2026-10-01T00:00:00.000Z');
    expect(c.openCases).toMatchObject({ openAtEnd: 3, openedInPeriod: 3, completedInPeriod: 2 });
    expect(c.openCases!.byStatus.map((s) => s.count)).toEqual([1, 1, 0, 1, 2]);
    expect(c.reliability!.score).toBe(75.8);
    expect(c.portalPulse!.daily[0]).toEqual({ date: '2026-10-01', onlineShare: 100 });
    expect(c.portalPulse!.daily).toHaveLength(31 + 18);
  });

  it('This Year meets the goal', async () => {
    const c = await preview(admin, portalId, 3);
    expect(c.period.from).toBe('2026-01-01T00:00:00.000Z');
    expect(c.openCases).toMatchObject({ openAtEnd: 3, openedInPeriod: 4, completedInPeriod: 2 });
    expect(c.reliability).toMatchObject({ score: 95.3, goal: 95, meetsGoal: true });
    expect(c.portalPulse!.daily).toHaveLength(322);
  });

  it('maintenance: left out of the score, counted in maintenanceSeconds clipped to the period and at removal', async () => {
    const week = await preview(admin, pierPortalId, 0, [2]);
    expect(week.reliability).toEqual({
      score: 93,
      goal: 95,
      meetsGoal: false,
      topOfflineDevices: [expect.objectContaining({ id: pierY, offlineSeconds: 6 * H })],
      maintenanceSeconds: 10 * H,
    });
    const month = await preview(admin, pierPortalId, 1, [2]);
    expect(month.reliability).toMatchObject({ score: 98.4, maintenanceSeconds: 14 * H });
  });

  it('only the sections in config', async () => {
    const c = await preview(admin, portalId, 0, [1]);
    expect(c.config).toEqual([1]);
    expect(c.openCases).toBeUndefined();
    expect(c.reliability).toBeUndefined();
    expect(c.portalPulse).toBeDefined();
  });

  it('a tenant in New York: the week starts at its local Monday midnight, days are its local days', async () => {
    t.clock.set('2026-11-16T03:00:00.000Z');
    const c = await preview(nyAdmin, nyPortalId, 0);
    expect(c.period).toMatchObject({ from: '2026-11-09T05:00:00.000Z', to: '2026-11-16T03:00:00.000Z', timezone: 'America/New_York' });
    expect(c.openCases).toMatchObject({ openAtEnd: 2, openedInPeriod: 1, completedInPeriod: 0 });
    // 166 h observed, 24 h offline: 142/166 = 85.54 %.
    expect(c.reliability).toMatchObject({ score: 85.5, goal: 90, meetsGoal: false });
    expect(c.portalPulse!.daily).toEqual([
      { date: '2026-11-09', onlineShare: 100 },
      { date: '2026-11-10', onlineShare: 0 },
      { date: '2026-11-11', onlineShare: 100 },
      { date: '2026-11-12', onlineShare: 100 },
      { date: '2026-11-13', onlineShare: 100 },
      { date: '2026-11-14', onlineShare: 100 },
      { date: '2026-11-15', onlineShare: 100 },
    ]);
    t.clock.set(NOW);
  });
});

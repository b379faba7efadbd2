import { deviceEndpoints, portalEndpoints, reportEndpoints, statsEndpoints } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceStatusPeriods } from '../../db/schema/index.ts';
import { rollUpAllTenants } from './index.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { HOUR, MAINTENANCE, historyKit, prng } from '../../../test/kits/stats/history-test-kit.ts';

/**
 * Maintenance (status-2 periods) is not observed time in any figure (docs/stats-live.md
 * "Reliability"): neither online nor offline. UTC tenant, now = Wed 2026-11-18 12:20Z.
 *  - "Door": online 02:20-10:20 (8 h), offline 10:20-11:20 (1 h), then in maintenance since 11:20
 *    (still reporting offline): offline 2 h, 1 h of it in maintenance, so 8 h online of 9 h observed.
 *  - "Gate": online 02:20-12:15, entered maintenance at 12:15, the instant its offline period began
 *    (a zero-length offline period is left): 595 min online of 595 observed.
 * Portal (and tenant): 1075 online minutes of 1135 observed = 94.71 -> 94.7 (80.0 if maintenance
 * counted as offline, 89.6 as online). Maintenance in the period: 60 + 5 min = 3900 device-seconds.
 * After the rollup job ran at now its kept window's base is 12:10, before Gate's maintenance began.
 */
const NOW = new Date('2026-11-18T12:20:00.000Z');
const MIN = 60_000;
const ago = (ms: number) => NOW.getTime() - ms;
const iso = (ms: number) => new Date(ms).toISOString();

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let portal: TestPortal;
let door: number;
let gate: number;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW.toISOString());
  cast = await createCast(t);
  portal = await createPortal(t, cast.tenant, 'Harbor Mall');
  const { insertDevice } = historyKit(() => t, prng(20261118));
  door = await insertDevice(
    portal,
    [
      { status: 1, s: ago(10 * HOUR), e: ago(2 * HOUR) },
      { status: 0, s: ago(2 * HOUR), e: ago(HOUR) },
      { status: MAINTENANCE, s: ago(HOUR), e: null },
    ],
    null,
  );
  gate = await insertDevice(
    portal,
    [
      { status: 1, s: ago(10 * HOUR), e: ago(5 * MIN) },
      { status: MAINTENANCE, s: ago(5 * MIN), e: null },
    ],
    null,
  );
  // The zero-length offline period, written after the maintenance one: the newest row of that start, so a
  // read of "the period in progress" that took the newest start alone would find it.
  await t.database.db.insert(deviceStatusPeriods).values({
    tenantId: portal.tenantId,
    portalId: portal.id,
    deviceId: gate,
    status: 0,
    startedAt: new Date(ago(5 * MIN)),
    endedAt: new Date(ago(5 * MIN)),
  });
});
afterAll(() => t.close());

/** Every reliability figure of the portal, its tenant and its devices as the API answers them now. */
async function figures() {
  const token = cast.admin.token;
  const stats = await t.call(statsEndpoints.customerStats, { token, params: { id: portal.id } });
  const pulse = await t.call(statsEndpoints.pulseSummary, { token });
  const list = await t.call(portalEndpoints.list, { token, query: { sort: ['reliabilityScore', 'ASC'], range: [0, 10] } });
  const trend = await t.call(statsEndpoints.reliabilityTrend, { token });
  const portalTrend = await t.call(statsEndpoints.customerReliabilityTrend, { token, params: { id: portal.id } });
  const doorDetail = await t.call(deviceEndpoints.get, { token, params: { id: door } });
  const gateDetail = await t.call(deviceEndpoints.get, { token, params: { id: gate } });
  return {
    portal: stats.body.data.reliabilityScore,
    tenant: pulse.body.data.avgReliabilityScore,
    listed: list.body.data.list.find((p) => p.id === portal.id)?.reliabilityScore,
    trendToday: trend.body.data.days.at(-1),
    portalTrendToday: portalTrend.body.data.days.at(-1),
    door: doorDetail.body.data.reliabilityScore,
    gate: gateDetail.body.data.reliabilityScore,
  };
}

const expected = {
  portal: 94.7,
  tenant: 94.7,
  listed: 94.7,
  trendToday: { date: '2026-11-18', score: 94.7 },
  portalTrendToday: { date: '2026-11-18', score: 94.7 },
  door: 88.9,
  gate: 100,
};

describe('maintenance in reliability figures', () => {
  it('counts neither as online nor as offline time: live, before any rollup run', async () => {
    expect(await figures()).toEqual(expected);
  });

  it('gives the same from the rollup and the kept window, maintenance begun before and after its base', async () => {
    await rollUpAllTenants(t.database, NOW);
    expect(await figures()).toEqual(expected);
  });

  it('reports the maintenance time of the period, offline time without it, and the score without either', async () => {
    const res = await t.call(reportEndpoints.preview, {
      token: cast.admin.token,
      body: { customerId: portal.id, period: 0, config: [1, 2] },
    });
    expect(res.status).toBe(200);
    const content = res.body.data;
    expect(content.reliability).toEqual({
      score: 94.7,
      goal: content.reliability!.goal,
      meetsGoal: content.reliability!.goal <= 94.7,
      topOfflineDevices: [expect.objectContaining({ id: door, offlineSeconds: 3600 })],
      maintenanceSeconds: 3900,
    });
    expect(content.portalPulse!.daily).toEqual([
      { date: '2026-11-16', onlineShare: -1 },
      { date: '2026-11-17', onlineShare: -1 },
      { date: '2026-11-18', onlineShare: 94.7 },
    ]);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/v0/api/reports/preview/export.csv?customerId=${portal.id}&period=0&config=[2]`,
      headers: { authorization: `Bearer ${cast.admin.token}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')).toContain('Reliability,Maintenance excluded,3900,seconds (1h 5m)');
  });

  it('says nothing about maintenance in a report whose period had none', async () => {
    const quiet = await createPortal(t, cast.tenant, 'Quiet Plaza');
    await historyKit(() => t, prng(7)).insertDevice(quiet, [{ status: 1, s: ago(5 * HOUR), e: null }], null);
    const res = await t.call(reportEndpoints.preview, { token: cast.admin.token, body: { customerId: quiet.id, period: 0, config: [2] } });
    expect(res.body.data.reliability).toMatchObject({ score: 100, maintenanceSeconds: 0 });
    const csv = await t.app.inject({
      method: 'GET',
      url: `/v0/api/reports/preview/export.csv?customerId=${quiet.id}&period=0&config=[2]`,
      headers: { authorization: `Bearer ${cast.admin.token}` },
    });
    expect(csv.body).not.toContain('Maintenance');
  });
});

describe('a device in maintenance all along', () => {
  it('has nothing observed: its portal, its trend days and its own score are -1', async () => {
    const yard = await createPortal(t, cast.tenant, 'Mast Yard');
    const mast = await historyKit(() => t, prng(40)).insertDevice(yard, [{ status: MAINTENANCE, s: ago(40 * 24 * HOUR), e: null }], null);
    const token = cast.admin.token;
    expect((await t.call(statsEndpoints.customerStats, { token, params: { id: yard.id } })).body.data.reliabilityScore).toBe(-1);
    const trend = await t.call(statsEndpoints.customerReliabilityTrend, { token, params: { id: yard.id } });
    expect(trend.body.data.days.map((d) => d.score)).toEqual(Array(30).fill(-1));
    expect((await t.call(deviceEndpoints.get, { token, params: { id: mast } })).body.data.reliabilityScore).toBe(-1);
    expect((await t.call(deviceEndpoints.history, { token, params: { id: mast } })).body.data.periods).toEqual([
      { status: 2, from: iso(ago(7 * 24 * HOUR)), to: NOW.toISOString() },
    ]);
  });
});

describe('maintenance in the device history', () => {
  const history = (id: number, from: number) =>
    t.call(deviceEndpoints.history, { token: cast.salesman.token, params: { id }, query: { from: iso(from), to: NOW.toISOString() } });

  it('passes status-2 periods through and drops the zero-length period left by entering maintenance', async () => {
    expect((await history(gate, ago(10 * HOUR))).body.data.periods).toEqual([
      { status: 1, from: iso(ago(10 * HOUR)), to: iso(ago(5 * MIN)) },
      { status: 2, from: iso(ago(5 * MIN)), to: NOW.toISOString() },
    ]);
    expect((await history(door, ago(3 * HOUR))).body.data.periods).toEqual([
      { status: 1, from: iso(ago(3 * HOUR)), to: iso(ago(2 * HOUR)) },
      { status: 0, from: iso(ago(2 * HOUR)), to: iso(ago(HOUR)) },
      { status: 2, from: iso(ago(HOUR)), to: NOW.toISOString() },
    ]);
  });

  it('finds the maintenance in progress at `from`, not the zero-length period with the same start', async () => {
    expect((await history(gate, ago(2 * MIN))).body.data.periods).toEqual([{ status: 2, from: iso(ago(2 * MIN)), to: NOW.toISOString() }]);
  });
});

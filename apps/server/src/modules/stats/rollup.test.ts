import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { deviceStatusPeriods } from '../../db/schema/index.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { uptimeRollupJob } from '../../jobs/uptime-rollup.job.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { createPortal, createTenant, type TestPortal, type TestTenant } from '../../../test/factories.ts';
import { historyChanges } from '../../../test/kits/stats/history-changes-kit.ts';
import { DAY, HOUR, MAINTENANCE, historyKit, prng } from '../../../test/kits/stats/history-test-kit.ts';
import { reliabilityByPortal, reliabilityByPortalLive, reliabilityOfTenant, reliabilityOfTenantLive } from './reliability.repository.ts';
import { rolledUntil } from './rollup-query.repository.ts';
import { portalTrend, tenantTrend, trendBounds } from './trend.repository.ts';

// The rollup must give exactly the live answer (not just within 0.1): random histories from a
// seeded PRNG (maintenance stretches included: not observed time), random windows (aligned or not
// to UTC days, short and long, ending now or in the past or after the rollup's end), per portal,
// per tenant and for all tenants.

const NOW = new Date('2026-05-20T13:17:42.123Z');

let t: TestApp;
let tenantA: TestTenant;
let tenantB: TestTenant;
const portals: TestPortal[] = [];
const rand = prng(20261122);
const { between, insertDevice, randomDevice } = historyKit(() => t, rand);
const { flipAt, enterMaintenanceAt, leaveMaintenanceAt, removeAt } = historyChanges(() => t);

async function runJob(at: Date) {
  t.clock.set(at);
  expect(await runTickOnce(t.deps, uptimeRollupJob)).toBe(true);
}

function randomWindow(): { from: Date; to: Date } {
  const kind = rand();
  const to = kind < 0.4 ? NOW.getTime() : kind < 0.5 ? NOW.getTime() + between(1, 3 * DAY) : NOW.getTime() - between(0, 40 * DAY);
  const span = rand() < 0.2 ? between(1, 2 * DAY) : rand() < 0.3 ? Math.round(between(1, 40)) * DAY : between(1, 60 * DAY);
  // Some windows start exactly on a UTC midnight.
  const from = rand() < 0.2 ? Math.floor((to - span) / DAY) * DAY : to - span;
  return { from: new Date(from), to: new Date(to) };
}

async function expectSameAsLive(windows: number) {
  for (let i = 0; i < windows; i++) {
    const win = randomWindow();
    const ids = portals.filter(() => rand() < 0.5).map((p) => p.id);
    for (const tenantId of [tenantA.id, tenantB.id, undefined]) {
      const label = `${win.from.toISOString()}..${win.to.toISOString()} tenant ${tenantId}`;
      expect(await reliabilityOfTenant(t.database.db, { tenantId, ...win }), label).toBe(
        await reliabilityOfTenantLive(t.database.db, { tenantId, ...win }),
      );
      expect(await reliabilityByPortal(t.database.db, { tenantId, ...win }), label).toEqual(
        await reliabilityByPortalLive(t.database.db, { tenantId, ...win }),
      );
      expect(await reliabilityByPortal(t.database.db, { tenantId, ...win, portalIds: ids }), label).toEqual(
        await reliabilityByPortalLive(t.database.db, { tenantId, ...win, portalIds: ids }),
      );
    }
  }
}

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await createTenant(t);
  tenantB = await createTenant(t);
  for (const tenant of [tenantA, tenantA, tenantA, tenantB, tenantB]) portals.push(await createPortal(t, tenant));
  const historyStart = NOW.getTime() - 45 * DAY;
  for (const portal of portals) {
    for (let i = 0; i < 12; i++) {
      // A quarter of the devices first report mid-history.
      const start = rand() < 0.25 ? between(historyStart, NOW.getTime() - HOUR) : historyStart + between(0, HOUR);
      await randomDevice(portal, start, NOW.getTime());
    }
  }
}, 60_000);
afterAll(() => t.close());

describe('uptime rollup', () => {
  it('has maintenance in its histories: open ones, zero-length periods, stretches across midnights and hours', async () => {
    const [m] = await queryRows<{ n: number; open: number; zero: number; midnight: number; hour: number }>(
      t.database.db,
      sql`select count(*) filter (where status = ${MAINTENANCE})::int as n,
                 count(*) filter (where status = ${MAINTENANCE} and ended_at is null)::int as open,
                 count(*) filter (where ended_at = started_at)::int as zero,
                 count(*) filter (where status = ${MAINTENANCE} and date_trunc('day', started_at) < date_trunc('day', coalesce(ended_at, now())))::int as midnight,
                 count(*) filter (where status = ${MAINTENANCE} and date_trunc('hour', started_at) < date_trunc('hour', coalesce(ended_at, now())))::int as hour
            from device_status_periods`,
    );
    expect(m.open).toBeGreaterThan(0);
    expect(m.zero).toBeGreaterThan(0);
    expect(m.midnight).toBeGreaterThan(0);
    expect(m.hour).toBeGreaterThan(m.midnight);
  });

  it('is not used before the job has run (no rolled day yet)', async () => {
    expect(await rolledUntil(t.database.db, tenantA.id)).toBeNull();
    expect(await rolledUntil(t.database.db)).toBeNull();
  });

  it('gives exactly the live answer for random windows once built', async () => {
    await runJob(NOW);
    const rolled = { day: new Date('2026-05-20T00:00:00Z'), hour: new Date('2026-05-20T13:00:00Z') };
    expect(await rolledUntil(t.database.db, tenantA.id)).toEqual(rolled);
    expect(await rolledUntil(t.database.db)).toEqual(rolled);
    const [{ n }] = (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from uptime_rollups`)) as [{ n: number }];
    expect(n).toBeGreaterThan(5 * 45);
    const [{ hours }] = (await queryRows<{ hours: number }>(
      t.database.db,
      sql`select count(*)::int as hours from uptime_rollup_hours where tenant_id = ${tenantA.id}`,
    )) as [{ hours: number }];
    expect(hours).toBe(45 * 24 + 14);
    await expectSameAsLive(40);
  }, 120_000);

  it('gives the trends (company from the hour rollup, portal from its periods) exactly the live score of each day', async () => {
    for (const timezone of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
      const bounds = await trendBounds(t.database.db, timezone, NOW);
      for (const tenantId of [tenantA.id, tenantB.id, undefined]) {
        const days = await tenantTrend(t.database.db, tenantId, bounds);
        const live = [];
        for (const b of bounds)
          live.push({ date: b.date, score: await reliabilityOfTenantLive(t.database.db, { tenantId, from: b.from, to: b.to }) });
        expect(days, `${timezone} tenant ${tenantId}`).toEqual(live);
      }
      for (const portal of portals.slice(0, 2)) {
        const days = await portalTrend(t.database.db, portal.tenantId, portal.id, bounds);
        const live = [];
        for (const b of bounds) {
          const scores = await reliabilityByPortalLive(t.database.db, {
            tenantId: portal.tenantId,
            portalIds: [portal.id],
            from: b.from,
            to: b.to,
          });
          live.push({ date: b.date, score: scores.get(portal.id) });
        }
        expect(days, `${timezone} portal ${portal.id}`).toEqual(live);
      }
    }
  }, 120_000);

  it('picks up back-dated history: a new device first seen 20 days ago, a flip dated 6 days back', async () => {
    const portal = portals[0];
    await insertDevice(
      portal,
      [
        { status: 0, s: NOW.getTime() - 20 * DAY, e: NOW.getTime() - 19 * DAY },
        { status: 1, s: NOW.getTime() - 19 * DAY, e: null },
      ],
      null,
    );
    // A late flip for an open period: close it 6 days back and open the next one then.
    const [open] = await queryRows<{ id: number; device_id: number; started_at: Date | string }>(
      t.database.db,
      sql`select id, device_id, started_at from device_status_periods
           where tenant_id = ${portal.tenantId} and portal_id = ${portal.id} and ended_at is null and started_at < ${new Date(NOW.getTime() - 7 * DAY).toISOString()}::timestamptz
           order by id limit 1`,
    );
    expect(open).toBeDefined();
    const flipAt = new Date(NOW.getTime() - 6 * DAY);
    await t.database.db.execute(
      sql`update device_status_periods set ended_at = ${flipAt.toISOString()}::timestamptz where tenant_id = ${portal.tenantId} and id = ${open.id}`,
    );
    await t.database.db
      .insert(deviceStatusPeriods)
      .values({ tenantId: portal.tenantId, portalId: portal.id, deviceId: open.device_id, status: 0, startedAt: flipAt });
    const win = { tenantId: portal.tenantId, from: new Date(NOW.getTime() - 30 * DAY), to: NOW };
    // The next run recomputes those days for that portal (ids above the mark of the run before last).
    await runJob(new Date(NOW.getTime() + 5 * 60_000));
    expect(await reliabilityByPortal(t.database.db, win)).toEqual(await reliabilityByPortalLive(t.database.db, win));
    expect(await reliabilityOfTenant(t.database.db, win)).toBe(await reliabilityOfTenantLive(t.database.db, win));
    await expectSameAsLive(15);
  }, 120_000);

  it('moves to the next day and stays exact as days pass with new periods', async () => {
    const portal = portals[3];
    await insertDevice(
      portal,
      [
        { status: 1, s: NOW.getTime() - 2 * HOUR, e: NOW.getTime() + 30 * HOUR },
        { status: 0, s: NOW.getTime() + 30 * HOUR, e: null },
      ],
      null,
    );
    await runJob(new Date(NOW.getTime() + 2 * DAY));
    expect(await rolledUntil(t.database.db, portal.tenantId)).toEqual({
      day: new Date('2026-05-22T00:00:00Z'),
      hour: new Date('2026-05-22T13:00:00Z'),
    });
    const win = { tenantId: portal.tenantId, from: new Date(NOW.getTime() - 10 * DAY), to: new Date(NOW.getTime() + 2 * DAY) };
    expect(await reliabilityByPortal(t.database.db, win)).toEqual(await reliabilityByPortalLive(t.database.db, win));
    await expectSameAsLive(10);
  }, 120_000);

  /** The windows around `at` that a wrong stored row would show: its day, its hour, and spans across them. */
  async function expectExactAround(at: Date) {
    const t0 = at.getTime();
    const floorDayAt = Math.floor(t0 / DAY) * DAY;
    const spans = [
      [floorDayAt - DAY, floorDayAt],
      [floorDayAt, floorDayAt + DAY],
      [t0 - HOUR, t0],
      [Math.floor(t0 / HOUR) * HOUR - HOUR, Math.floor(t0 / HOUR) * HOUR + HOUR],
      [t0 - 3 * DAY, t0 + 10 * 60_000],
      [t0 - 30 * DAY, t0 + 30 * 60_000],
    ];
    for (const [from, to] of spans) {
      for (const tenantId of [tenantA.id, tenantB.id, undefined]) {
        const win = { tenantId, from: new Date(from), to: new Date(to) };
        const label = `${win.from.toISOString()}..${win.to.toISOString()} tenant ${tenantId}`;
        expect(await reliabilityOfTenant(t.database.db, win), label).toBe(await reliabilityOfTenantLive(t.database.db, win));
        expect(await reliabilityByPortal(t.database.db, win), label).toEqual(await reliabilityByPortalLive(t.database.db, win));
      }
    }
  }

  it('rewrites what changed since the last run: changes dated before it (in flight across it), at exactly a midnight or an hour', async () => {
    // A run just after midnight rolls the day and the hour 00:00.
    const midnight = new Date('2026-05-23T00:00:00Z');
    await enterMaintenanceAt(portals[3], new Date(midnight.getTime() - 2 * HOUR), new Date(midnight.getTime() - 2 * HOUR));
    await runJob(new Date(midnight.getTime() + 30_000));
    // Committed after that run, dated before it: a removal and a flip (requests in flight across the run),
    // a flip at exactly midnight (the rolled row's counts at start), and one back-dated by the offline sweep.
    await removeAt(portals[1], new Date(midnight.getTime() - 10_000));
    await flipAt(portals[2], new Date(midnight.getTime() - 5_000), midnight);
    await flipAt(portals[0], new Date(midnight.getTime() - 40 * 60_000), new Date(midnight.getTime() - 40 * 60_000));
    // Tenant B: nothing earlier makes the run start before midnight anyway. Maintenance begun at exactly
    // midnight and another left seconds before it are changes like any flip.
    await flipAt(portals[3], midnight, midnight);
    await enterMaintenanceAt(portals[4], midnight, midnight);
    await leaveMaintenanceAt(portals[3], new Date(midnight.getTime() - 7_000), new Date(midnight.getTime() - 7_000));
    await runJob(new Date(midnight.getTime() + 5 * 60_000 + 30_000));
    await expectExactAround(midnight);

    // The same within a day, around the hour 14:00 (only hour rows are stored for it).
    const hour = new Date('2026-05-23T14:00:00Z');
    await runJob(new Date(hour.getTime() + 20_000));
    await removeAt(portals[0], new Date(hour.getTime() - 3_000));
    await flipAt(portals[1], new Date(hour.getTime() - 1), hour);
    await flipAt(portals[4], hour, hour);
    await enterMaintenanceAt(portals[2], new Date(hour.getTime() - 2_000), hour);
    await leaveMaintenanceAt(portals[4], hour, hour);
    await runJob(new Date(hour.getTime() + 5 * 60_000 + 20_000));
    await expectExactAround(hour);
    // Runs with nothing new keep it so; then the next midnight rolls the day.
    await runJob(new Date(hour.getTime() + 10 * 60_000 + 20_000));
    await expectExactAround(hour);
    await runJob(new Date(midnight.getTime() + DAY + 60_000));
    await expectExactAround(new Date(midnight.getTime() + DAY));
    await expectSameAsLive(5);
  }, 120_000);

  it('leaves out the maintenance of a device removed inside it (its period clipped at the removal) in the edges', async () => {
    // After the last run (00:01): maintenance from 01:30, the device removed at 02:40 with the period left
    // open, a run at 02:50 (hour rows to 02:00), windows whose edges hold the removal.
    const day = new Date('2026-05-24T00:00:00Z').getTime();
    await enterMaintenanceAt(portals[2], new Date(day + 90 * 60_000), new Date(day + 90 * 60_000));
    const [{ device_id: deviceId }] = await queryRows<{ device_id: number }>(
      t.database.db,
      sql`select device_id from device_status_periods where tenant_id = ${portals[2].tenantId} and portal_id = ${portals[2].id}
             and status = ${MAINTENANCE} and ended_at is null and started_at = ${new Date(day + 90 * 60_000).toISOString()}::timestamptz`,
    );
    await t.database.db.execute(
      sql`update devices set removed_at = ${new Date(day + 160 * 60_000).toISOString()}::timestamptz where tenant_id = ${portals[2].tenantId} and id = ${deviceId}`,
    );
    const expectExact = async (spans: number[][]) => {
      for (const [from, to] of spans) {
        for (const tenantId of [portals[2].tenantId, undefined]) {
          const win = { tenantId, from: new Date(day + from * 60_000), to: new Date(day + to * 60_000) };
          const label = `${win.from.toISOString()}..${win.to.toISOString()} tenant ${tenantId}`;
          expect(await reliabilityOfTenant(t.database.db, win), label).toBe(await reliabilityOfTenantLive(t.database.db, win));
          expect(await reliabilityByPortal(t.database.db, win), label).toEqual(await reliabilityByPortalLive(t.database.db, win));
        }
      }
    };
    // The removal in the edges after 02:00 (the day's and the hour's).
    await runJob(new Date(day + 170 * 60_000));
    await expectExact([
      [150, 165],
      [-24 * 60, 165],
      [100, 170],
    ]);
    // The removal inside the rebuilt hour 02:00-03:00.
    await runJob(new Date(day + 185 * 60_000));
    await expectExact([
      [100, 185],
      [120, 180],
      [-24 * 60, 185],
    ]);
  }, 60_000);
});

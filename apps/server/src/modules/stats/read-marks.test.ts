import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { uptimeRollupJob } from '../../jobs/uptime-rollup.job.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { createPortal, createTenant, type TestPortal, type TestTenant } from '../../../test/factories.ts';
import { historyChanges } from '../../../test/kits/stats/history-changes-kit.ts';
import { anchorsSettled, at, HOUR_13, MIN, NOW, SEC } from '../../../test/kits/stats/marks-test-kit.ts';
import { DAY, HOUR, historyKit, prng } from '../../../test/kits/stats/history-test-kit.ts';
import { createMarks, MARK_LINE_MS, type Marks } from './read-marks.ts';
import type { HourMark } from './hour-mark.repository.ts';
import { companyTrend, type ReadTx } from './stats.service.ts';
import { createTrendCache } from './trend-cache.ts';
import type { KeptMark } from './kept-mark.repository.ts';
import { KEPT_BASE_LAG_MS, KEPT_WINDOW_MS } from './kept-window-build.repository.ts';
import { reliabilityByPortal, reliabilityByPortalLive, reliabilityOfTenant, reliabilityOfTenantLive } from './reliability.repository.ts';
import { condsOf, edgeAndChange, edgePeriods, inProgressChange } from './rollup-query.repository.ts';

// Marks (hour-mark.repository.ts, kept-mark.repository.ts) must give exactly the live scores as changes
// arrive: dated after the newest mark (it stands), between two marks or before both but after the base
// (the newest stands with what those periods change: mark.repository.ts markPatch), a removal between two
// marks (the older one answers) and before both (read from the base again), maintenance, a new rolled
// hour, a late report before the kept base. The windows are short or the portals young, so that seconds
// of one device move the score.

let t: TestApp;
let tenant: TestTenant;
const portals: TestPortal[] = [];
const rand = prng(20261206);
const { insertDevice, randomDevice } = historyKit(() => t, rand);
const { flipAt, enterMaintenanceAt, leaveMaintenanceAt, nextPeriod, openPeriod, removeAt } = historyChanges(() => t);
let marks: Marks<HourMark>;

/** The instants of the tenant's usable marks up to `to`, newest first. */
const markTimes = (hour: Date, to: Date) => marks.usable(tenant.id, hour, to).map((m) => new Date(m.at).toISOString());

/** The open period of device `deviceId`. */
async function openPeriodOf(deviceId: number) {
  const [open] = await queryRows<{ id: number; device_id: number }>(
    t.database.db,
    sql`select id, device_id from device_status_periods where tenant_id = ${tenant.id} and device_id = ${deviceId} and ended_at is null`,
  );
  return open;
}

/** The tenant's score through the marks equals the live one, over the last 20 minutes and over 30 days. */
async function expectLive(to: Date) {
  for (const from of [new Date(to.getTime() - 20 * MIN), new Date(to.getTime() - 30 * DAY)]) {
    const win = { tenantId: tenant.id, from, to };
    const label = `${from.toISOString()}..${to.toISOString()}`;
    await anchorsSettled(t.database.db, marks);
    expect(await reliabilityOfTenant(t.database.db, win, marks), label).toBe(await reliabilityOfTenantLive(t.database.db, win));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t);
  portals.push(await createPortal(t, tenant), await createPortal(t, tenant));
  // Two days of history in two portals, four devices each, and a flip of every device within the hour.
  for (const portal of portals) for (let i = 0; i < 4; i++) await randomDevice(portal, NOW.getTime() - 2 * DAY, NOW.getTime() - 30 * MIN);
  for (const portal of portals)
    for (let i = 1; i <= 3; i++) {
      const flip = new Date(HOUR_13.getTime() + i * 4 * MIN);
      await flipAt(portal, flip, flip);
    }
  t.clock.set(NOW);
  expect(await runTickOnce(t.deps, uptimeRollupJob)).toBe(true);
}, 60_000);
afterAll(() => t.close());

describe('marks of the current hour and of the kept windows', () => {
  it('reads from the rolled hour first and keeps a mark a few seconds behind the window', async () => {
    marks = createMarks<HourMark>({ minWalk: 0 });
    await expectLive(at(10 * SEC));
    // Two reads of the same end: the first keeps the mark, the second is less than a step newer.
    expect(markTimes(HOUR_13, at(10 * SEC))).toEqual([at(7 * SEC).toISOString()]);
  });

  it('reads from a mark that stands when the changes since are dated after it, and keeps a newer one', async () => {
    await flipAt(portals[0], at(9 * SEC), at(9 * SEC));
    await enterMaintenanceAt(portals[1], at(12 * SEC), at(12 * SEC));
    await expectLive(at(20 * SEC));
    // The mark at +7 s stood (it is kept as the older one) and the read left one at +17 s.
    expect(markTimes(HOUR_13, at(20 * SEC))).toEqual([at(17 * SEC).toISOString(), at(7 * SEC).toISOString()]);
  });

  it('carries the newer mark over a change dated between the two, reading what it changes from its periods alone', async () => {
    await flipAt(portals[1], at(15 * SEC), at(15 * SEC));
    await expectLive(at(30 * SEC));
    expect(markTimes(HOUR_13, at(30 * SEC))).toEqual([at(27 * SEC).toISOString(), at(17 * SEC).toISOString()]);
  });

  it('carries its marks over a change dated before both but after the rolled hour: a flip back-dated by the sweep', async () => {
    await flipAt(portals[0], at(-60 * SEC), at(-60 * SEC));
    // One device twice, both before the marks: offline at -50 s (the sweep), back at -40 s (a report dated then).
    const open = await openPeriod(portals[1], at(-50 * SEC), false);
    await nextPeriod(portals[1], open, 1 - open.status, at(-50 * SEC));
    await nextPeriod(portals[1], await openPeriodOf(open.device_id), open.status, at(-40 * SEC));
    await expectLive(at(40 * SEC));
    expect(markTimes(HOUR_13, at(40 * SEC))).toEqual([at(37 * SEC).toISOString(), at(27 * SEC).toISOString()]);
  });

  it('falls back to the older mark after a removal dated between the two, and to the rolled hour after one before both', async () => {
    await expectLive(at(50 * SEC));
    expect(markTimes(HOUR_13, at(50 * SEC))).toEqual([at(47 * SEC).toISOString(), at(37 * SEC).toISOString()]);
    // A removal request that began between the two marks and committed after them.
    await removeAt(portals[1], at(40 * SEC));
    await expectLive(at(60 * SEC));
    expect(markTimes(HOUR_13, at(60 * SEC))).toEqual([at(57 * SEC).toISOString(), at(37 * SEC).toISOString()]);
    // Leaving maintenance is a closed period and the next one opened, as a flip: carried over.
    await leaveMaintenanceAt(portals[1], at(40 * SEC), at(40 * SEC));
    await expectLive(at(70 * SEC));
    expect(markTimes(HOUR_13, at(70 * SEC))).toEqual([at(67 * SEC).toISOString(), at(57 * SEC).toISOString()]);
    // A removal that began before both marks.
    await removeAt(portals[0], at(45 * SEC));
    await expectLive(at(80 * SEC));
    expect(markTimes(HOUR_13, at(80 * SEC))).toEqual([at(77 * SEC).toISOString()]);
  });

  it('is not used for a window that ends before a mark or before the rolled hour', async () => {
    await expectLive(at(5 * SEC));
    await expectLive(new Date(HOUR_13.getTime() - 5 * MIN));
    // Neither left a mark older than the kept ones, nor dropped them.
    expect(markTimes(HOUR_13, at(80 * SEC))).toEqual([at(77 * SEC).toISOString()]);
  });

  it('starts again from the next rolled hour', async () => {
    const hour14 = new Date(HOUR_13.getTime() + HOUR);
    await flipAt(portals[0], new Date(hour14.getTime() + 2 * MIN), new Date(hour14.getTime() + 2 * MIN));
    t.clock.set(new Date(hour14.getTime() + 5 * MIN));
    expect(await runTickOnce(t.deps, uptimeRollupJob)).toBe(true);
    const to = new Date(hour14.getTime() + 6 * MIN);
    await expectLive(to);
    expect(markTimes(HOUR_13, to)).toEqual([]);
    expect(markTimes(hour14, to)).toEqual([new Date(to.getTime() - 3 * SEC).toISOString()]);
    await flipAt(portals[1], new Date(to.getTime() + SEC), new Date(to.getTime() + SEC));
    await expectLive(new Date(to.getTime() + 10 * SEC));
    expect(markTimes(hour14, new Date(to.getTime() + 10 * SEC))).toHaveLength(2);
  });

  it("gives the company trend's today from marks of the same hour", async () => {
    const hour14 = new Date(HOUR_13.getTime() + HOUR);
    const midnight = new Date('2026-05-20T00:00:00Z');
    const trendMarks = createMarks<HourMark>({ minWalk: 0 });
    // Statements every call (no live today), the settled days and today's base kept after the first.
    const cache = createTrendCache({ live: false });
    const read: ReadTx = (fn) => fn(t.database.db);
    const expectToday = async (now: Date) => {
      await anchorsSettled(t.database.db, trendMarks);
      const trend = await companyTrend(read, tenant.id, now, cache, trendMarks);
      expect(trend.days.at(-1)).toEqual({
        date: '2026-05-20',
        score: await reliabilityOfTenantLive(t.database.db, { tenantId: tenant.id, from: midnight, to: now }),
      });
    };
    const now = (offsetMs: number) => new Date(hour14.getTime() + 7 * MIN + offsetMs);
    await expectToday(now(0));
    await expectToday(now(10 * SEC));
    expect(trendMarks.usable(tenant.id, hour14, now(10 * SEC)).map((m) => m.at)).toEqual([now(7 * SEC).getTime()]);
    await flipAt(portals[0], now(8 * SEC), now(8 * SEC));
    await expectToday(now(20 * SEC));
    expect(trendMarks.usable(tenant.id, hour14, now(20 * SEC)).map((m) => m.at)).toEqual([now(17 * SEC).getTime(), now(7 * SEC).getTime()]);
    // Back-dated by the sweep to before both marks: minutes of one device move today's score; the newer mark stands with it.
    await flipAt(portals[1], new Date(hour14.getTime() + MIN), new Date(hour14.getTime() + MIN));
    await expectToday(now(30 * SEC));
    expect(trendMarks.usable(tenant.id, hour14, now(30 * SEC)).map((m) => m.at)).toEqual([
      now(27 * SEC).getTime(),
      now(17 * SEC).getTime(),
    ]);
  });

  it("reads the portal scores of the kept window's head from marks of its base", async () => {
    // A portal whose one device was first seen 40 minutes before the run: seconds of it move its score.
    const fresh = await createPortal(t, tenant);
    const run = new Date(HOUR_13.getTime() + 90 * MIN);
    await insertDevice(
      fresh,
      [
        { status: 1, s: run.getTime() - 40 * MIN, e: run.getTime() - 20 * MIN },
        { status: 0, s: run.getTime() - 20 * MIN, e: null },
      ],
      null,
    );
    t.clock.set(run);
    expect(await runTickOnce(t.deps, uptimeRollupJob)).toBe(true);
    const base = new Date(run.getTime() - KEPT_BASE_LAG_MS);
    const keptMarks = createMarks<KeptMark>({ minWalk: 0 });
    const after = (ms: number) => new Date(run.getTime() + ms);
    const markTimesAt = (to: Date) => keptMarks.usable(tenant.id, base, to).map((m) => m.at - run.getTime());
    const expectPortalsLive = async (to: Date) => {
      for (const portalIds of [undefined, [fresh.id, portals[0].id]]) {
        const win = { tenantId: tenant.id, from: new Date(to.getTime() - KEPT_WINDOW_MS), to, portalIds };
        await anchorsSettled(t.database.db, keptMarks);
        expect(await reliabilityByPortal(t.database.db, win, keptMarks), to.toISOString()).toEqual(
          await reliabilityByPortalLive(t.database.db, win),
        );
      }
    };
    await expectPortalsLive(after(30 * SEC));
    expect(markTimesAt(after(30 * SEC))).toEqual([27 * SEC]);
    await flipAt(fresh, after(40 * SEC), after(40 * SEC));
    await expectPortalsLive(after(60 * SEC));
    expect(markTimesAt(after(60 * SEC))).toEqual([57 * SEC, 27 * SEC]);
    // Dated between the two marks, and before both but after the base (the sweep's): the newer one stands with them.
    await flipAt(fresh, after(50 * SEC), after(50 * SEC));
    await flipAt(portals[1], after(10 * SEC), after(10 * SEC));
    await expectPortalsLive(after(90 * SEC));
    expect(markTimesAt(after(90 * SEC))).toEqual([87 * SEC, 57 * SEC]);
    // Dated before the base (a late report), read within the same line: no mark stands, the read walks from the base and
    // finds that portal unsettled (scored another way), and so in the marks read from this one.
    await flipAt(portals[0], new Date(base.getTime() - 5 * MIN), new Date(base.getTime() - 5 * MIN));
    await expectPortalsLive(after(90 * SEC));
    expect(markTimesAt(after(90 * SEC))).toEqual([87 * SEC]);
    expect(keptMarks.usable(tenant.id, base, after(90 * SEC))[0].unsettled.map((u) => u.portal_id)).toEqual([portals[0].id]);
    await flipAt(fresh, after(118 * SEC), after(118 * SEC));
    await expectPortalsLive(after(120 * SEC));
    expect(markTimesAt(after(120 * SEC))).toEqual([117 * SEC, 87 * SEC]);
    expect(keptMarks.usable(tenant.id, base, after(120 * SEC))[0].unsettled.map((u) => u.portal_id)).toEqual([portals[0].id]);
  });

  it('reads from the base again once its line of marks is a minute old, so that a period edited by hand shows', async () => {
    marks = createMarks<HourMark>({ minWalk: 0 });
    const hour14 = new Date(HOUR_13.getTime() + HOUR);
    const to0 = new Date(HOUR_13.getTime() + 93 * MIN);
    const after = (ms: number) => new Date(to0.getTime() + ms);
    await expectLive(to0);
    await expectLive(after(20 * SEC));
    expect(markTimes(hour14, after(20 * SEC))).toEqual([after(17 * SEC).toISOString(), after(-3 * SEC).toISOString()]);
    // Not a writer of the app: no period written, no removal, so the marks cannot see it.
    const open = await openPeriod(portals[1], to0, false);
    await t.database.db.execute(
      sql`update device_status_periods set status = ${1 - open.status} where tenant_id = ${tenant.id} and id = ${open.id}`,
    );
    await expectLive(after(61 * SEC));
    expect(markTimes(hour14, after(61 * SEC))).toEqual([after(58 * SEC).toISOString()]);
  });

  it('walks both sums in one pass as edgePeriods and inProgressChange do, at instants where periods begin or end too', async () => {
    const c = condsOf({ tenantId: tenant.id, from: NOW, to: NOW });
    const ends = await queryRows<{ s: Date | string; e: Date | string | null }>(
      t.database.db,
      sql`select started_at as s, ended_at as e from device_status_periods where tenant_id = ${tenant.id} and started_at > ${HOUR_13.toISOString()}::timestamptz`,
    );
    const instants = [
      ...new Set(
        ends
          .flatMap((r) => [r.s, r.e])
          .filter((d) => d !== null)
          .map((d) => new Date(d).getTime()),
      ),
    ].sort((a, b) => a - b);
    expect(instants.length).toBeGreaterThan(10);
    const sums = (parts: SQL) =>
      queryRows<{ portal_id: number; on_us: string; obs_us: string; on_n: string; obs_n: string }>(
        t.database.db,
        sql`select portal_id, sum(on_us)::numeric(30, 0)::text as on_us, sum(obs_us)::numeric(30, 0)::text as obs_us,
                   sum(on_n)::text as on_n, sum(obs_n)::text as obs_n
              from (${parts}) x group by portal_id order by portal_id`,
      );
    for (let i = 0; i < 40; i++) {
      const [a, b] = [instants[Math.floor(rand() * instants.length)], instants[Math.floor(rand() * instants.length)]];
      if (a === b) continue;
      const [D, X] = [new Date(Math.min(a, b)), new Date(Math.max(a, b))];
      const apart = sql`select e.portal_id, e.on_us, e.obs_us, 0 as on_n, 0 as obs_n from (${edgePeriods(c, D, X, 1)}) e(portal_id, on_us, obs_us)
                        union all select n.portal_id, 0, 0, n.online_n, n.observed_n from (${inProgressChange(c, D, X)}) n`;
      expect(await sums(edgeAndChange(c, D, X)), `${D.toISOString()}..${X.toISOString()}`).toEqual(await sums(apart));
    }
  });

  it('keeps no marks where the read from the base walked few periods, and reads as without them for a line', async () => {
    const quiet = createMarks<HourMark>();
    const hour14 = new Date(HOUR_13.getTime() + HOUR);
    const to = new Date(HOUR_13.getTime() + 100 * MIN);
    const win = (end: Date) => ({ tenantId: tenant.id, from: new Date(end.getTime() - 20 * MIN), to: end });
    for (const end of [to, new Date(to.getTime() + 10 * SEC)]) {
      await anchorsSettled(t.database.db, quiet);
      expect(await reliabilityOfTenant(t.database.db, win(end), quiet)).toBe(await reliabilityOfTenantLive(t.database.db, win(end)));
      expect(quiet.usable(tenant.id, hour14, end)).toEqual([]);
    }
    expect(quiet.resting(tenant.id, hour14, new Date(to.getTime() + MARK_LINE_MS - 1))).toBe(true);
    expect(quiet.resting(tenant.id, hour14, new Date(to.getTime() + MARK_LINE_MS))).toBe(false);
  });

  it('keeps a mark from the read that walks from the base when the marks it dropped were less than a step old', async () => {
    // The rolled hour of the tests above, with the marks of the first test's read; then a removal dated before them.
    const own = createMarks<HourMark>({ minWalk: 0 });
    const hour14 = new Date(HOUR_13.getTime() + HOUR);
    const to = new Date(HOUR_13.getTime() + 110 * MIN);
    const win = (end: Date) => ({ tenantId: tenant.id, from: new Date(end.getTime() - 20 * MIN), to: end });
    await anchorsSettled(t.database.db, own);
    expect(await reliabilityOfTenant(t.database.db, win(to), own)).toBe(await reliabilityOfTenantLive(t.database.db, win(to)));
    expect(own.usable(tenant.id, hour14, to).map((m) => m.at)).toEqual([to.getTime() - 3 * SEC]);
    await removeAt(portals[0], new Date(to.getTime() - 5 * SEC));
    // Half a second later: the mark kept is less than a step older than the one this read would keep.
    const later = new Date(to.getTime() + SEC / 2);
    await anchorsSettled(t.database.db, own);
    expect(await reliabilityOfTenant(t.database.db, win(later), own)).toBe(await reliabilityOfTenantLive(t.database.db, win(later)));
    expect(own.usable(tenant.id, hour14, later).map((m) => m.at)).toEqual([later.getTime() - 3 * SEC]);
  });
});

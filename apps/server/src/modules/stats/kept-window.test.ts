import { portalEndpoints, type Portal } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { uptimeRollupJob } from '../../jobs/uptime-rollup.job.ts';
import { createCast, createPortal, type TestPortal, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { DAY, HOUR, MAINTENANCE, historyKit, prng } from '../../../test/kits/stats/history-test-kit.ts';
import { keptWindowKit } from '../../../test/kits/stats/kept-window-kit.ts';
import { keepWindow, KEPT_BASE_LAG_MS, KEPT_WINDOW_MS } from './kept-window-build.repository.ts';
import { rollUpTenant } from './rollup-build.repository.ts';
import { keptScoresByPortal } from './kept-window-query.repository.ts';
import { reliabilityByPortal, reliabilityByPortalLive } from './reliability.repository.ts';

// Kept windows: the Portals list sorted by Reliability Score reads every portal's score from the
// kept window (one row per portal plus the minutes since its base). It must give the same scores
// and order as the live computation over raw periods, as time passes, as new periods arrive
// (forward, removals, back-dated) and across rollup ticks: random histories, plus portals whose
// score moves a lot within minutes at the window's head or its tail, so a stale base shows. The list
// in its default order (name) reads a page's scores from the same kept window, on PostgreSQL in the
// page's own statement: its pages must show the same scores too. What a page costs in statements:
// kept-window-statements.test.ts.

const MIN = 60_000;
const NOW = new Date('2026-05-20T13:17:42.123Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const mine: TestPortal[] = [];
const rand = prng(20261124);
const { between, insertDevice, randomDevice } = historyKit(() => t, rand);
const { flip, openDeviceOf, tenantPortalsByName } = keptWindowKit(() => t);
/** A portal whose only device first reported 40 minutes before NOW (online, then its flips below). */
let young: { portal: TestPortal; deviceId: number };

/** The list's window at the clock's now: the last 30 days. */
const windowNow = () => ({ from: new Date(t.clock.now().getTime() - KEPT_WINDOW_MS), to: t.clock.now() });

async function runJob(now: Date) {
  t.clock.set(now);
  expect(await runTickOnce(t.deps, uptimeRollupJob)).toBe(true);
}

/** Every page of the Portals list sorted by reliability, as the API answers it (a token fresh at the fake clock). */
const tokenOf = (user: TestUser) =>
  t.deps.accessTokens.sign({
    userId: user.id,
    userName: user.name,
    tenantId: user.tenantId,
    tenantName: user.tenantName,
    roles: user.roles,
  });

async function listByReliability(user: TestUser, dir: 'ASC' | 'DESC'): Promise<Portal[]> {
  const token = await tokenOf(user);
  const rows: Portal[] = [];
  for (let offset = 0; ; offset += 4) {
    const res = await t.call(portalEndpoints.list, { token, query: { sort: ['reliabilityScore', dir], range: [offset, 4] } });
    expect(res.status).toBe(200);
    rows.push(...res.body.data.list);
    if (offset + 4 >= res.body.data.count) return rows;
  }
}

/** Every page of the tenant's Portals list in its default order (name), as the API answers it: rows and scores read together. */
async function listByName(user: TestUser): Promise<{ id: number; score: number }[]> {
  const token = await tokenOf(user);
  const rows: { id: number; score: number }[] = [];
  for (let offset = 0; ; offset += 3) {
    const res = await t.call(portalEndpoints.list, { token, query: { range: [offset, 3] } });
    expect(res.status).toBe(200);
    rows.push(...res.body.data.list.map((p) => ({ id: p.id, score: p.reliabilityScore })));
    if (offset + 3 >= res.body.data.count) return rows;
  }
}

/** What the list must show: live scores over raw periods, sorted by score then name (lower case) and id. */
async function expectedList(tenantId: number | undefined, dir: 'ASC' | 'DESC'): Promise<{ id: number; score: number }[]> {
  const live = await reliabilityByPortalLive(t.database.db, { tenantId, ...windowNow() });
  const portals = await queryRows<{ id: number; name: string }>(
    t.database.db,
    sql`select p.id, p.name from portals p where p.deleted_at is null and ${tenantId === undefined ? sql`true` : sql`p.tenant_id = ${tenantId}`}
         order by lower(p.name), p.id`,
  );
  const sign = dir === 'ASC' ? 1 : -1;
  return portals
    .map((p, nameOrder) => ({ id: Number(p.id), score: live.get(Number(p.id)) ?? -1, nameOrder }))
    .sort((a, b) => sign * (a.score - b.score) || a.nameOrder - b.nameOrder)
    .map(({ id, score }) => ({ id, score }));
}

/** The list (tenant Admin and superAdmin, both directions) and the score maps equal the live ones exactly. */
async function expectSameAsLive(label: string) {
  for (const dir of ['DESC', 'ASC'] as const) {
    const listed = (await listByReliability(cast.admin, dir)).map((p) => ({ id: p.id, score: p.reliabilityScore }));
    expect(listed, `${label} ${dir}`).toEqual(await expectedList(cast.tenant.id, dir));
    const all = (await listByReliability(cast.superAdmin, dir)).map((p) => ({ id: p.id, score: p.reliabilityScore }));
    expect(all, `${label} ${dir} superAdmin`).toEqual(await expectedList(undefined, dir));
  }
  const byScore = await expectedList(cast.tenant.id, 'ASC');
  const byName = (await tenantPortalsByName(cast.tenant.id)).map((id) => byScore.find((p) => p.id === id)!);
  expect(await listByName(cast.admin), `${label} by name`).toEqual(byName);
  const subset = mine.filter(() => rand() < 0.5).map((p) => p.id);
  // A long id list (as when every portal is sorted) is picked from the tenant's scores instead of being a condition.
  const long = [...mine.map((p) => p.id), ...Array.from({ length: 150 }, (_, i) => 900_000 + i)];
  for (const tenantId of [cast.tenant.id, undefined]) {
    const win = { tenantId, ...windowNow() };
    expect(await reliabilityByPortal(t.database.db, win), label).toEqual(await reliabilityByPortalLive(t.database.db, win));
    for (const portalIds of [subset, long]) {
      expect(await reliabilityByPortal(t.database.db, { ...win, portalIds }), label).toEqual(
        await reliabilityByPortalLive(t.database.db, { ...win, portalIds }),
      );
    }
  }
}

/** The kept path answered (no fallback) and which portals it left to the rollup or the live path. */
async function keptUnsettled(tenantId: number | undefined): Promise<number[]> {
  const kept = await keptScoresByPortal(t.database.db, { tenantId, ...windowNow() });
  expect(kept, 'the kept window answers').not.toBeNull();
  return kept!.unsettled.map((u) => u.portalId).sort((a, b) => a - b);
}

/** As the maintenance job writes a device entering maintenance: its open period closed at `when`, a status-2 one opened. */
async function enterMaintenance(portal: TestPortal, deviceId: number, when: Date) {
  await t.database.db.execute(sql`update device_status_periods set ended_at = ${when.toISOString()}::timestamptz
                                   where tenant_id = ${portal.tenantId} and device_id = ${deviceId} and ended_at is null`);
  await t.database.db.execute(sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
                                   values (${portal.tenantId}, ${deviceId}, ${portal.id}, ${MAINTENANCE}, ${when.toISOString()}::timestamptz)`);
  await t.database.db.execute(sql`update devices set maintenance_since = ${when.toISOString()}::timestamptz
                                   where tenant_id = ${portal.tenantId} and id = ${deviceId}`);
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  cast = await createCast(t);
  const historyStart = NOW.getTime() - 45 * DAY;
  // Random portals; 'echo' and 'Echo' share a name (case-insensitively) and a history, so they tie on score and name.
  for (const name of ['alpha', 'Bravo', 'charlie', 'Delta', 'echo', 'Echo', 'foxtrot']) {
    const portal = await createPortal(t, cast.tenant, name);
    mine.push(portal);
    const devices = name === 'foxtrot' ? 0 : between(3, 9);
    for (let i = 0; i < devices; i++) {
      const start = rand() < 0.25 ? between(historyStart, NOW.getTime() - HOUR) : historyStart + between(0, HOUR);
      await randomDevice(portal, start, NOW.getTime());
    }
    // A steady device (online all along) in the first three, for the flips and the removal below.
    if (mine.length <= 3) await insertDevice(portal, [{ status: 1, s: historyStart, e: null }], null);
  }
  const echo = mine[4];
  const twin = mine[5];
  await t.database
    .exec(`insert into devices (tenant_id, portal_id, external_id, name, device_type, status, last_report_at, status_since, first_seen_at, removed_at)
                         select tenant_id, ${twin.id}, external_id || '-twin', name, device_type, status, last_report_at, status_since, first_seen_at, removed_at
                           from devices where portal_id = ${echo.id}`);
  await t.database.exec(`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at, ended_at)
                         select p.tenant_id, tw.id, ${twin.id}, p.status, p.started_at, p.ended_at
                           from device_status_periods p join devices d on d.id = p.device_id
                           join devices tw on tw.portal_id = ${twin.id} and tw.external_id = d.external_id || '-twin'
                          where p.portal_id = ${echo.id}`);
  // Head: one device first seen 40 minutes before NOW; its score moves by points per minute of a flip.
  const head = await createPortal(t, cast.tenant, 'golf');
  mine.push(head);
  young = { portal: head, deviceId: await insertDevice(head, [{ status: 1, s: at(-40 * MIN).getTime(), e: null }], null) };
  // Tail: a device seen only around the window's start: online from 31 days back to 20 minutes past
  // the 30-day mark, then offline 5 minutes, removed. Its score falls from ~86 to 0 to -1 within the hour.
  const tail = await createPortal(t, cast.tenant, 'hotel');
  mine.push(tail);
  const edge = NOW.getTime() - KEPT_WINDOW_MS;
  await insertDevice(
    tail,
    [
      { status: 1, s: edge - DAY, e: edge + 20 * MIN },
      { status: 0, s: edge + 20 * MIN, e: edge + 25 * MIN },
    ],
    edge + 25 * MIN,
  );
  // Maintenance across the window's start: online to 10 minutes past the 30-day mark, in maintenance for 20
  // minutes, offline 5, then online: its score moves as the tail's edge passes each.
  const kilo = await createPortal(t, cast.tenant, 'kilo');
  mine.push(kilo);
  await insertDevice(
    kilo,
    [
      { status: 1, s: edge - DAY, e: edge + 10 * MIN },
      { status: MAINTENANCE, s: edge + 10 * MIN, e: edge + 30 * MIN },
      { status: 0, s: edge + 30 * MIN, e: edge + 35 * MIN },
      { status: 1, s: edge + 35 * MIN, e: null },
    ],
    null,
  );
  // Another tenant's portals: in the superAdmin's list only.
  for (const name of ['india', 'juliett']) {
    const portal = await createPortal(t, cast.other, name);
    for (let i = 0; i < 4; i++) await randomDevice(portal, historyStart + between(0, 10 * DAY), NOW.getTime());
  }
}, 60_000);
afterAll(() => t.close());

describe('kept reliability windows', () => {
  it('before the first rollup run: no kept window, the list is sorted by the live scores', async () => {
    expect(await keptScoresByPortal(t.database.db, { tenantId: cast.tenant.id, ...windowNow() })).toBeNull();
    await expectSameAsLive('no rollup yet');
  });

  it('after a run: every portal from the kept window, the same scores and order as live as the window slides', async () => {
    await runJob(NOW);
    const [state] = await queryRows<{ window_to: Date | string }>(
      t.database.db,
      sql`select window_to from kept_window_state where tenant_id = ${cast.tenant.id}`,
    );
    expect(new Date(state.window_to)).toEqual(at(-KEPT_BASE_LAG_MS));
    // From the run's own instant to just under an hour past its base: the head and tail portals change within it.
    const seen = new Set<number>();
    for (const offset of [0, 1 * MIN, 9 * MIN, 22 * MIN, 37 * MIN, 49 * MIN]) {
      t.clock.set(at(offset));
      expect(await keptUnsettled(cast.tenant.id)).toEqual([]);
      expect(await keptUnsettled(undefined)).toEqual([]);
      await expectSameAsLive(`+${offset / MIN} min`);
      const tailScore = (
        await reliabilityByPortal(t.database.db, { tenantId: cast.tenant.id, ...windowNow(), portalIds: [mine[8].id] })
      ).get(mine[8].id)!;
      seen.add(tailScore);
    }
    // The tail portal went from a score through 0 to nothing observed: the window's start moved past its periods.
    expect(seen).toContain(0);
    expect(seen).toContain(-1);
    expect([...seen].some((s) => s > 50)).toBe(true);
    // Over an hour past the base, the rollup answers (and still the same).
    t.clock.set(at(75 * MIN));
    expect(await keptScoresByPortal(t.database.db, { tenantId: cast.tenant.id, ...windowNow() })).toBeNull();
    await expectSameAsLive('+75 min');
  }, 120_000);

  it('new periods after the run: flips and a removal since the base, back-dated flips and a late first report', async () => {
    t.clock.set(at(3 * MIN));
    // Since the base: the young device enters maintenance and leaves it offline a minute ago (its score drops by
    // points), a device is removed now.
    await enterMaintenance(young.portal, young.deviceId, at(MIN));
    await expectSameAsLive('maintenance since the base');
    await flip(young.portal, young.deviceId, 0, at(2 * MIN));
    const removed = await openDeviceOf(mine[1], at(-DAY));
    await t.database.db.execute(sql`update devices set removed_at = ${at(3 * MIN).toISOString()}::timestamptz where id = ${removed}`);
    await t.database.db.execute(
      sql`update device_status_periods set ended_at = ${at(3 * MIN).toISOString()}::timestamptz where device_id = ${removed} and ended_at is null`,
    );
    expect(await keptUnsettled(cast.tenant.id)).toEqual([]);
    await expectSameAsLive('flip and removal since the base');

    // Before the base: a flip dated 15 minutes back (today: the rollup has it), one 6 days back and a device first seen 20 days ago (live).
    await flip(mine[0], await openDeviceOf(mine[0], at(-15 * MIN)), 0, at(-15 * MIN));
    await flip(mine[2], await openDeviceOf(mine[2], at(-6 * DAY)), 0, at(-6 * DAY));
    await insertDevice(
      mine[3],
      [
        { status: 0, s: at(-20 * DAY).getTime(), e: at(-19 * DAY).getTime() },
        { status: 1, s: at(-19 * DAY).getTime(), e: null },
      ],
      null,
    );
    const backdated = [mine[0].id, mine[2].id, mine[3].id].sort((a, b) => a - b);
    expect(await keptUnsettled(cast.tenant.id)).toEqual(backdated);
    expect(await keptUnsettled(undefined)).toEqual(backdated);
    await expectSameAsLive('back-dated periods');
    t.clock.set(at(4 * MIN));
    await expectSameAsLive('back-dated periods, a minute later');
  }, 120_000);

  it('a rollup tick takes the new periods into a new base; the generation before stays for readers in flight', async () => {
    await runJob(at(5 * MIN));
    expect(await keptUnsettled(cast.tenant.id)).toEqual([]);
    await expectSameAsLive('after the tick');
    // The young device back online after the tick.
    t.clock.set(at(8 * MIN));
    await flip(young.portal, young.deviceId, 1, at(7 * MIN));
    await expectSameAsLive('a flip after the tick');
    const generations = await queryRows<{ window_to: Date | string }>(
      t.database.db,
      sql`select distinct window_to from kept_windows where tenant_id = ${cast.tenant.id} order by window_to`,
    );
    expect(generations.map((g) => new Date(g.window_to))).toEqual([at(-KEPT_BASE_LAG_MS), at(5 * MIN - KEPT_BASE_LAG_MS)]);
    await runJob(at(10 * MIN));
    const after = await queryRows<{ window_to: Date | string }>(
      t.database.db,
      sql`select distinct window_to from kept_windows where tenant_id = ${cast.tenant.id} order by window_to`,
    );
    expect(after.map((g) => new Date(g.window_to))).toEqual([at(5 * MIN - KEPT_BASE_LAG_MS), at(10 * MIN - KEPT_BASE_LAG_MS)]);
    await expectSameAsLive('two ticks later');
  }, 120_000);

  it('a period written between the rollup and the kept window (the job commits them apart) leaves its portal scored another way', async () => {
    const now = at(15 * MIN);
    t.clock.set(now);
    for (const tenantId of [cast.tenant.id, cast.other.id]) {
      const rolled = await inScope(t.database.db, allTenants, (tx) => rollUpTenant(tx, tenantId, now));
      // Webhooks get the session between the two transactions: a flip dated before the new base T.
      if (tenantId === cast.tenant.id)
        await flip(mine[4], await openDeviceOf(mine[4], at(-MIN)), 0, new Date(now.getTime() - KEPT_BASE_LAG_MS - MIN));
      await inScope(t.database.db, allTenants, (tx) => keepWindow(tx, tenantId, now, rolled.periodIdMark));
    }
    expect(await keptUnsettled(cast.tenant.id)).toEqual([mine[4].id]);
    await expectSameAsLive('a flip between the two transactions');
    await runJob(at(20 * MIN));
    expect(await keptUnsettled(cast.tenant.id)).toEqual([]);
    await expectSameAsLive('the next tick');
  }, 120_000);
});

import { deviceEndpoints, statsEndpoints, tenantsEndpoints } from '@vigil/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, deviceStatusPeriods, tenants } from '../../db/schema/index.ts';
import { LIVE_MS, rollUpAllTenants } from '../stats/index.ts';
import { reported, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';
import { createCast, createDevices, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/**
 * The device page's API and the reliability trends (docs/history.md). The clock stands at
 * 2026-11-22 12:00 UTC, 06:00 in Chicago (the tenant's time zone, UTC-6 in November).
 */
const NOW = new Date('2026-11-22T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const iso = (d: Date) => d.toISOString();

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let portal: TestPortal;
let foreignPortal: TestPortal;
let flaky: number;
let steady: number;
let foreign: number;
let removed: number;

/** A device with the given periods ([status, start, end | null]), oldest first. */
async function deviceWith(p: TestPortal, name: string, periods: [0 | 1, Date, Date | null][]) {
  const last = periods.at(-1)!;
  const [row] = await t.database.db
    .insert(devices)
    .values({
      tenantId: p.tenantId,
      portalId: p.id,
      externalId: `ext-${name}`,
      name,
      deviceType: 0,
      status: last[0],
      lastReportAt: last[1],
      lastOnline: last[0] === 1 ? last[1] : null,
      statusSince: last[1],
      firstSeenAt: periods[0][1],
    })
    .returning({ id: devices.id });
  await t.database.db
    .insert(deviceStatusPeriods)
    .values(
      periods.map(([status, s, e]) => ({ tenantId: p.tenantId, portalId: p.id, deviceId: row.id, status, startedAt: s, endedAt: e })),
    );
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(iso(NOW));
  cast = await createCast(t);
  await t.database.db.update(tenants).set({ timezone: 'America/Chicago', goalScore: 97 }).where(eq(tenants.id, cast.tenant.id));
  portal = await createPortal(t, cast.tenant, 'Harbor Works');
  foreignPortal = await createPortal(t, cast.other, 'Elsewhere');
  // First seen 10 days ago; offline for 6 hours from 3 days ago (Nov 19, 06:00-12:00 Chicago time).
  flaky = await deviceWith(portal, 'Gate Camera', [
    [1, ago(10 * DAY), ago(3 * DAY)],
    [0, ago(3 * DAY), ago(3 * DAY - 6 * HOUR)],
    [1, ago(3 * DAY - 6 * HOUR), null],
  ]);
  // Online since 20 days ago (Nov 2, 06:00 Chicago time).
  steady = await deviceWith(portal, 'Lobby Intercom', [[1, ago(20 * DAY), null]]);
  // Another tenant's device, offline all along: it must count nowhere here.
  foreign = await deviceWith(foreignPortal, 'Foreign Camera', [[0, ago(40 * DAY), null]]);
  const [gone] = await createDevices(t, portal, [{ name: 'Gone' }]);
  await t.database.db
    .update(devices)
    .set({ removedAt: ago(HOUR) })
    .where(eq(devices.id, gone.id));
  removed = gone.id;
});
afterAll(() => t.close());

describe('GET /devices/:id', () => {
  it('answers the device row with its first report, 30-day reliability, status since, goal and open alert', async () => {
    const res = await t.call(deviceEndpoints.get, { token: cast.salesman.token, params: { id: flaky } });
    expect(res.status).toBe(200);
    // Observed 240 h in the last 30 days, 6 h of them offline: 234 / 240 = 97.5 %.
    expect(res.body.data).toMatchObject({
      id: flaky,
      name: 'Gate Camera',
      status: 1,
      customerId: portal.id,
      customerName: 'Harbor Works',
      firstSeen: iso(ago(10 * DAY)),
      statusSince: iso(ago(3 * DAY - 6 * HOUR)),
      reliabilityScore: 97.5,
      goalScore: 97,
      openAlertId: null,
      caseId: null,
    });
  });

  it('names the open alert holding the device, not a resolved one', async () => {
    const T = cast.tenant.id;
    await t.database.exec(`
      insert into alerts (tenant_id, id, portal_id, alert_type, offline_count, resolved_at) values (${T}, 9001, ${portal.id}, 0, 1, now());
      insert into alert_devices (tenant_id, alert_id, device_id) values (${T}, 9001, ${steady});`);
    expect((await t.call(deviceEndpoints.get, { token: cast.pm.token, params: { id: steady } })).body.data.openAlertId).toBeNull();
    await t.database.exec(`
      insert into alerts (tenant_id, id, portal_id, alert_type, offline_count) values (${T}, 9002, ${portal.id}, 0, 1);
      insert into alert_devices (tenant_id, alert_id, device_id) values (${T}, 9002, ${steady});`);
    expect((await t.call(deviceEndpoints.get, { token: cast.pm.token, params: { id: steady } })).body.data.openAlertId).toBe(9002);
  });

  it("answers 404 for another tenant's device and a removed one; the superAdmin reads any tenant's", async () => {
    expect((await t.call(deviceEndpoints.get, { token: cast.admin.token, params: { id: foreign } })).status).toBe(404);
    expect((await t.call(deviceEndpoints.get, { token: cast.otherAdmin.token, params: { id: flaky } })).status).toBe(404);
    expect((await t.call(deviceEndpoints.get, { token: cast.admin.token, params: { id: removed } })).status).toBe(404);
    const su = await t.call(deviceEndpoints.get, { token: cast.superAdmin.token, params: { id: foreign } });
    expect(su.status).toBe(200);
    expect(su.body.data).toMatchObject({ id: foreign, reliabilityScore: 0, firstSeen: iso(ago(40 * DAY)) });
  });
});

describe('GET /devices/:id/history', () => {
  const history = (id: number, query: Record<string, string> = {}, token = cast.salesman.token) =>
    t.call(deviceEndpoints.history, { token, params: { id }, query });

  it('answers the last 7 days by default, contiguous and clipped to the range, the open period ending now', async () => {
    const res = await history(flaky);
    expect(res.status).toBe(200);
    expect(res.body.data.periods).toEqual([
      { status: 1, from: iso(ago(7 * DAY)), to: iso(ago(3 * DAY)) },
      { status: 0, from: iso(ago(3 * DAY)), to: iso(ago(3 * DAY - 6 * HOUR)) },
      { status: 1, from: iso(ago(3 * DAY - 6 * HOUR)), to: iso(NOW) },
    ]);
  });

  it('starts at the first report, clips both ends, and ends an open period at now for a range into the future', async () => {
    const early = await history(flaky, { from: iso(ago(12 * DAY)), to: iso(ago(9 * DAY)) });
    expect(early.body.data.periods).toEqual([{ status: 1, from: iso(ago(10 * DAY)), to: iso(ago(9 * DAY)) }]);
    const inside = await history(flaky, { from: iso(ago(3 * DAY - HOUR)), to: iso(ago(3 * DAY - 2 * HOUR)) });
    expect(inside.body.data.periods).toEqual([{ status: 0, from: iso(ago(3 * DAY - HOUR)), to: iso(ago(3 * DAY - 2 * HOUR)) }]);
    const ahead = await history(steady, { from: iso(ago(HOUR)), to: iso(new Date(NOW.getTime() + DAY)) });
    expect(ahead.body.data.periods).toEqual([{ status: 1, from: iso(ago(HOUR)), to: iso(NOW) }]);
    const before = await history(flaky, { from: iso(ago(80 * DAY)), to: iso(ago(70 * DAY)) });
    expect(before.body.data.periods).toEqual([]);
    // 90 days exactly is allowed.
    const full = await history(flaky, { from: iso(ago(90 * DAY)), to: iso(NOW) });
    expect(full.status).toBe(200);
    expect(full.body.data.periods).toHaveLength(3);
  });

  it('refuses from >= to, a range over 90 days and bad timestamps with 400 and a clear message', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ from: iso(ago(DAY)), to: iso(ago(2 * DAY)) }, 'from must be before to'],
      [{ from: iso(ago(DAY)), to: iso(ago(DAY)) }, 'from must be before to'],
      [{ from: iso(new Date(NOW.getTime() + DAY)) }, 'from must be before to'],
      [{ from: iso(ago(91 * DAY)), to: iso(NOW) }, 'The range must not exceed 90 days'],
      [{ from: iso(ago(91 * DAY)) }, 'The range must not exceed 90 days'],
      [{ to: 'yesterday' }, 'from and to must be ISO 8601 timestamps'],
    ];
    for (const [query, msg] of cases) {
      const res = await history(flaky, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error!.msg).toContain(msg);
    }
  });

  it("answers 404 for another tenant's device and a removed one; the superAdmin reads any tenant's", async () => {
    expect((await history(foreign, {}, cast.admin.token)).status).toBe(404);
    expect((await history(flaky, {}, cast.otherAdmin.token)).status).toBe(404);
    expect((await history(removed, {}, cast.admin.token)).status).toBe(404);
    const su = await history(foreign, {}, cast.superAdmin.token);
    expect(su.status).toBe(200);
    expect(su.body.data.periods).toEqual([{ status: 0, from: iso(ago(7 * DAY)), to: iso(NOW) }]);
  });
});

describe('reliability trends', () => {
  /** The Chicago dates Oct 24 .. Nov 22 and their expected scores. */
  function expectedDays() {
    const days: { date: string; score: number }[] = [];
    for (let i = 29; i >= 0; i--) days.push({ date: iso(new Date(Date.UTC(2026, 10, 22) - i * DAY)).slice(0, 10), score: -1 });
    const set = (date: string, score: number) => (days.find((d) => d.date === date)!.score = score);
    // The steady device from Nov 2, 06:00 local; the flaky one from Nov 12; Nov 19: 42 h online of 48.
    for (const d of days) if (d.date >= '2026-11-02') d.score = 100;
    set('2026-11-19', 87.5);
    return days;
  }

  it('answers 30 Chicago days ending today with the goal, from the periods and then from the rollup, the same', async () => {
    const before = await t.call(statsEndpoints.reliabilityTrend, { token: cast.salesman.token });
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ goal: 97, days: expectedDays() });
    const portalBefore = await t.call(statsEndpoints.customerReliabilityTrend, { token: cast.salesman.token, params: { id: portal.id } });
    expect(portalBefore.body.data).toEqual({ goal: 97, days: expectedDays() });

    await rollUpAllTenants(t.database, NOW);
    const after = await t.call(statsEndpoints.reliabilityTrend, { token: cast.admin.token });
    expect(after.body.data).toEqual({ goal: 97, days: expectedDays() });
  });

  it('counts the day so far for today, and a flip since the rollup', async () => {
    t.clock.set(iso(new Date(NOW.getTime() + 10 * 60_000)));
    try {
      // The steady device goes offline 4 minutes after the rollup's run, in a new period.
      const at = new Date(NOW.getTime() + 4 * 60_000);
      await t.database.db.update(deviceStatusPeriods).set({ endedAt: at }).where(eq(deviceStatusPeriods.deviceId, steady));
      await t.database.db
        .insert(deviceStatusPeriods)
        .values({ tenantId: cast.tenant.id, portalId: portal.id, deviceId: steady, status: 0, startedAt: at });
      // Today so far: 06:00-12:10 UTC, 2 devices x 370 minutes, 6 of them offline, plus the removed
      // device's 300 online minutes until its removal: 1034 / 1040 = 99.4.
      const days = expectedDays();
      days[29].score = 99.4;
      expect((await t.call(statsEndpoints.reliabilityTrend, { token: cast.admin.token })).body.data.days).toEqual(days);
      expect(
        (await t.call(statsEndpoints.customerReliabilityTrend, { token: cast.admin.token, params: { id: portal.id } })).body.data.days,
      ).toEqual(days);
    } finally {
      t.clock.set(iso(NOW));
    }
  });

  it("answers 404 for another tenant's portal; the superAdmin reads any portal, and all tenants in UTC days", async () => {
    const cross = await t.call(statsEndpoints.customerReliabilityTrend, { token: cast.admin.token, params: { id: foreignPortal.id } });
    expect(cross.status).toBe(404);
    const su = await t.call(statsEndpoints.customerReliabilityTrend, { token: cast.superAdmin.token, params: { id: foreignPortal.id } });
    expect(su.status).toBe(200);
    expect(su.body.data.goal).toBe(95);
    expect(su.body.data.days.at(-1)).toEqual({ date: '2026-11-22', score: 0 });
    const all = await t.call(statsEndpoints.reliabilityTrend, { token: cast.superAdmin.token });
    expect(all.status).toBe(200);
    expect(all.body.data.goal).toBe(95);
    expect(all.body.data.days).toHaveLength(30);
    expect(all.body.data.days[0].date).toBe('2026-10-24');
    expect(all.body.data.days.at(-1)!.date).toBe('2026-11-22');
  });
  it('keeps the settled days until the rollup runs again, then answers the history it rolled up anew', async () => {
    await rollUpAllTenants(t.database, NOW);
    const first = await t.call(statsEndpoints.reliabilityTrend, { token: cast.admin.token });
    expect(first.body.data.days).toEqual(expectedDays());
    // A stretch offline reported late (periods dated Nov 15, 10:00-16:00 UTC), for the steady device.
    const [from, to] = [new Date('2026-11-15T10:00:00Z'), new Date('2026-11-15T16:00:00Z')];
    const [open] = await t.database.db
      .select({ id: deviceStatusPeriods.id, endedAt: deviceStatusPeriods.endedAt })
      .from(deviceStatusPeriods)
      .where(eq(deviceStatusPeriods.deviceId, steady))
      .orderBy(deviceStatusPeriods.startedAt)
      .limit(1);
    await t.database.db.update(deviceStatusPeriods).set({ endedAt: from }).where(eq(deviceStatusPeriods.id, open.id));
    await t.database.db.insert(deviceStatusPeriods).values([
      { tenantId: cast.tenant.id, portalId: portal.id, deviceId: steady, status: 0, startedAt: from, endedAt: to },
      { tenantId: cast.tenant.id, portalId: portal.id, deviceId: steady, status: 1, startedAt: to, endedAt: open.endedAt },
    ]);
    // Before the rollup's run the settled days are the rolled ones, kept or not.
    expect((await t.call(statsEndpoints.reliabilityTrend, { token: cast.admin.token })).body.data.days).toEqual(expectedDays());
    // The run at the same instant sees the new periods: Nov 15 in Chicago is 42 online hours of 48.
    await rollUpAllTenants(t.database, NOW);
    const days = expectedDays();
    days.find((d) => d.date === '2026-11-15')!.score = 87.5;
    expect((await t.call(statsEndpoints.reliabilityTrend, { token: cast.admin.token })).body.data.days).toEqual(days);
    expect((await t.call(statsEndpoints.reliabilityTrend, { token: cast.salesman.token })).body.data.days).toEqual(days);
  });

  it('follows the goal, the day and the time zone while its settled days are kept', async () => {
    // The portal's trend reads the periods (nothing kept): with every device of the tenant on this portal, the two agree.
    // A token signed at the clock's time (the cast's expire as the clock moves on).
    const { id: userId, name: userName, tenantId, tenantName, roles } = cast.admin;
    const token = async () => t.deps.accessTokens.sign({ userId, userName, tenantId, tenantName, roles });
    const company = async () => (await t.call(statsEndpoints.reliabilityTrend, { token: await token() })).body.data;
    const fromPeriods = async () =>
      (await t.call(statsEndpoints.customerReliabilityTrend, { token: await token(), params: { id: portal.id } })).body.data.days;
    // Through the API, as the Admin does it (the change is announced to what each process keeps).
    const setTenant = async (body: { goalScore?: number; timezone?: string }) =>
      expect((await t.call(tenantsEndpoints.update, { token: await token(), params: { id: cast.tenant.id }, body })).status).toBe(200);
    await rollUpAllTenants(t.database, NOW);
    try {
      expect((await company()).days).toEqual(await fromPeriods());
      // Twice more: the second call answers from today read by the first (trend-cache.ts), the goal too.
      expect((await company()).goal).toBe(97);
      expect((await company()).goal).toBe(97);
      await setTenant({ goalScore: 90 });
      expect((await company()).goal).toBe(90);
      // Past Chicago's midnight (06:00 UTC), the rollup not run since noon: a new day, yesterday no longer settled.
      t.clock.set(iso(new Date(NOW.getTime() + 19 * HOUR)));
      const nextDay = await company();
      expect(nextDay.days.at(-1)!.date).toBe('2026-11-23');
      expect(nextDay.days).toEqual(await fromPeriods());
      // The same instant in UTC days: 07:00 on Nov 23, so the first day is Oct 25 from midnight UTC.
      await setTenant({ timezone: 'UTC' });
      const utc = await company();
      expect(utc.days[0].date).toBe('2026-10-25');
      expect(utc.days).toEqual(await fromPeriods());
      expect(utc.days).not.toEqual(nextDay.days);
    } finally {
      t.clock.set(iso(NOW));
      await t.database.db.update(tenants).set({ goalScore: 97, timezone: 'America/Chicago' }).where(eq(tenants.id, cast.tenant.id));
      await rollUpAllTenants(t.database, NOW);
    }
  });

  it('answers today from the instant it was read while nothing changes, a status change at once, a change outside the app within LIVE_MS', async () => {
    const { id: userId, name: userName, tenantId, tenantName, roles } = cast.admin;
    const token = async () => t.deps.accessTokens.sign({ userId, userName, tenantId, tenantName, roles });
    const company = async () => (await t.call(statsEndpoints.reliabilityTrend, { token: await token() })).body.data.days;
    const fromPeriods = async () =>
      (await t.call(statsEndpoints.customerReliabilityTrend, { token: await token(), params: { id: portal.id } })).body.data.days;
    const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
    const [lobby] = await t.database.db.select({ externalId: devices.externalId }).from(devices).where(eq(devices.id, steady));
    try {
      // The frame, then today read in full at 12:05 (kept as live).
      t.clock.set(iso(at(5)));
      await company();
      expect(await company()).toEqual(await fromPeriods());
      // 12:30, nothing changed: today grown by the periods in progress equals a read of the periods.
      t.clock.set(iso(at(30)));
      const quiet = await company();
      expect(quiet).toEqual(await fromPeriods());
      // The lobby intercom reports offline through the webhook: the next answer counts it.
      expect((await sendWebhook(t, portal, reported([{ externalId: lobby.externalId, status: 0, at: at(30) }]))).status).toBe(202);
      t.clock.set(iso(at(50)));
      const afterFlip = await company();
      expect(afterFlip).toEqual(await fromPeriods());
      expect(afterFlip.at(-1)!.score).toBeLessThan(quiet.at(-1)!.score);
      // Read again at 12:50 (kept as live), then 30 seconds on from it, without a statement.
      expect(await company()).toEqual(afterFlip);
      const live = (ms: number) => new Date(at(50).getTime() + ms);
      t.clock.set(iso(live(30_000)));
      expect(await company()).toEqual(await fromPeriods());
      // A period rewritten by hand (no announcement): unseen while the live today serves, read after
      // LIVE_MS. On PostgreSQL nothing is kept live (Database.notifiesAtCommit): every call reads it.
      await t.database.db
        .update(deviceStatusPeriods)
        .set({ status: 1 })
        .where(and(eq(deviceStatusPeriods.deviceId, steady), isNull(deviceStatusPeriods.endedAt)));
      t.clock.set(iso(live(LIVE_MS)));
      if (t.database.notifiesAtCommit) expect(await company()).not.toEqual(await fromPeriods());
      else expect(await company()).toEqual(await fromPeriods());
      t.clock.set(iso(live(LIVE_MS + 1)));
      expect(await company()).toEqual(await fromPeriods());
    } finally {
      t.clock.set(iso(NOW));
    }
  });
});

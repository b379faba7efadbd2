import { deviceEndpoints, maintenanceEndpoints as mw, notificationChannelEndpoints } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { maintenanceJob } from '../../jobs/maintenance.job.ts';
import { offlineAlertsJob } from '../../jobs/offline-alerts.job.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { sweepOfflineDevices } from '../devices/index.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { expectOpenPeriodInvariant } from '../../../test/kits/maintenance/maintenance-test-kit.ts';
import { renewTokens } from '../../../test/kits/cases/operations-test-support.ts';
import { announceAndSend, deliveryRows } from '../../../test/kits/notifications/notify-test-kit.ts';
import { deviceIdOf, periodsOf as devicePeriods, reported, removed, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * Maintenance materialised into status history (docs/maintenance.md), driven through the API, the
 * webhooks and the jobs' ticks with the fake clock: a covered device gets a status-2 period exactly over
 * the occurrence, opens no alert and sends nothing meanwhile, and counts as a new offline device when its
 * window ends while it is still offline.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const START = new Date('2026-11-22T06:00:00.000Z');
const MIN = 60_000;
const at = (minutes: number, seconds = 0) => new Date(START.getTime() + minutes * MIN + seconds * 1000);

beforeAll(async () => {
  t = await createTestApp({ env: { NOTIFY_ALLOW_PRIVATE_TARGETS: '1' } });
  t.clock.set(at(0));
  cast = await createCast(t);
  await t.database.exec(`update tenants set heartbeat_timeout = 10 where id = ${cast.tenant.id}`);
});
afterAll(() => t.close());

/** Moves the fake clock; the cast's access tokens are signed again so they stay valid. */
async function setClock(when: Date): Promise<void> {
  t.clock.set(when);
  await renewTokens(t, [cast.admin, cast.pm]);
}

/** Runs a job's tick at `when` (each call a new tick: the claims are per 5 s). */
async function tick(job: typeof maintenanceJob, when: Date): Promise<void> {
  await setClock(when);
  expect(await runTickOnce(t.deps, job)).toBe(true);
}

const idOf = (portal: TestPortal, externalId: string) => deviceIdOf(t, portal, externalId);

/** A device's periods as [status, start, end | null], oldest first. */
const periodsOf = async (deviceId: number) => (await devicePeriods(t, deviceId)).map((p) => [p.status, p.from, p.to]);

const expectInvariant = (tenantId: number) => expectOpenPeriodInvariant(t, tenantId);

async function deviceRow(deviceId: number) {
  const res = await t.call(deviceEndpoints.get, { token: cast.admin.token, params: { id: deviceId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const openAlertsOf = (portal: TestPortal) =>
  queryRows<{ id: number; device_ids: number[] }>(
    t.database.db,
    sql`select a.id, array(select ad.device_id from alert_devices ad where ad.tenant_id = a.tenant_id and ad.alert_id = a.id order by ad.device_id) as device_ids
          from alerts a where a.tenant_id = ${portal.tenantId} and a.portal_id = ${portal.id} and a.resolved_at is null`,
  );

async function report(portal: TestPortal, devices: { externalId: string; status: 0 | 1; at: Date }[]): Promise<void> {
  expect((await sendWebhook(t, portal, reported(devices))).status).toBe(202);
}

describe('maintenance through the job', () => {
  it('writes a status-2 period exactly over the occurrence, and no alert or notification during it', async () => {
    const portal = await createPortal(t, cast.tenant, 'Harbor');
    const channel = await t.call(notificationChannelEndpoints.create, {
      token: cast.admin.token,
      body: { name: 'Ops now', type: 'email', target: ['ops@example.test'], delayMinutes: 0, customerIds: [portal.id] },
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    const deliveriesOfChannel = async () => (await deliveryRows(t.database)).filter((d) => Number(d.channel_id) === channel.body.data.id);

    await report(
      portal,
      ['a', 'b', 'c', 's', 'e'].map((externalId) => ({ externalId, status: 1 as const, at: at(0) })),
    );
    const [a, b, c, s, e] = await Promise.all(['a', 'b', 'c', 's', 'e'].map((x) => idOf(portal, x)));
    const created = await t.call(mw.create, {
      token: cast.admin.token,
      body: { customerId: portal.id, startsAt: at(10).toISOString(), endsAt: at(40).toISOString(), reason: 'Panel swap' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.inForce).toBe(false);

    // c goes offline just before the window; no rule run happens before the window starts.
    await setClock(at(9));
    await report(portal, [{ externalId: 'c', status: 0, at: at(9) }]);
    await tick(maintenanceJob, at(9, 30));
    expect((await deviceRow(c)).inMaintenance).toBe(false);

    await tick(maintenanceJob, at(10, 2));
    for (const id of [a, b, c, s, e]) expect((await deviceRow(id)).inMaintenance).toBe(true);
    await expectInvariant(cast.tenant.id);
    await tick(offlineAlertsJob, at(10, 3));
    expect(await openAlertsOf(portal)).toEqual([]);

    // During the window: a report moves the status (b offline, a and e stay online) and writes no period; the
    // sweep turns the silent s offline, again without a period.
    await setClock(at(10, 30));
    await report(portal, [{ externalId: 'e', status: 1, at: at(10, 30) }]);
    await setClock(at(12));
    await report(portal, [
      { externalId: 'b', status: 0, at: at(12) },
      { externalId: 'a', status: 1, at: at(12) },
    ]);
    await setClock(at(14));
    await report(portal, [{ externalId: 'b', status: 1, at: at(14) }]);
    expect(await sweepOfflineDevices(t.deps, at(15, 10))).toBe(1);
    await setClock(at(16));
    await report(portal, [{ externalId: 'b', status: 0, at: at(16) }]);
    await setClock(at(34));
    await report(portal, [{ externalId: 'a', status: 1, at: at(34) }]);
    expect(await deviceRow(b)).toMatchObject({ status: 0, inMaintenance: true });
    expect(await deviceRow(s)).toMatchObject({ status: 0, inMaintenance: true });
    expect(await periodsOf(b)).toEqual([
      [1, at(0).toISOString(), at(10).toISOString()],
      [2, at(10).toISOString(), null],
    ]);
    await expectInvariant(cast.tenant.id);
    // The offline filter is about the reported status: b, c and s, though no open offline period holds them.
    const offline = await t.call(deviceEndpoints.list, {
      token: cast.admin.token,
      query: { filter: { status: 0, customerId: portal.id } },
    });
    expect(offline.body.data.list.map((d) => d.id).sort((x, y) => x - y)).toEqual([b, c, s].sort((x, y) => x - y));
    await tick(offlineAlertsJob, at(34, 20));
    expect(await openAlertsOf(portal)).toEqual([]);
    await announceAndSend(t);
    expect(await deliveriesOfChannel()).toEqual([]);

    // The window ends at 40: ticks before change nothing; the first tick after writes the end at 40 exactly.
    await tick(maintenanceJob, at(39, 58));
    expect((await deviceRow(a)).inMaintenance).toBe(true);
    await tick(maintenanceJob, at(40, 3));
    for (const id of [a, b, c, s, e]) expect((await deviceRow(id)).inMaintenance).toBe(false);
    await expectInvariant(cast.tenant.id);
    expect(await periodsOf(a)).toEqual([
      [1, at(0).toISOString(), at(10).toISOString()],
      [2, at(10).toISOString(), at(40).toISOString()],
      [1, at(40).toISOString(), null],
    ]);
    expect(await periodsOf(c)).toEqual([
      [1, at(0).toISOString(), at(9).toISOString()],
      [0, at(9).toISOString(), at(10).toISOString()],
      [2, at(10).toISOString(), at(40).toISOString()],
      [0, at(40).toISOString(), null],
    ]);
    const history = await t.call(deviceEndpoints.history, {
      token: cast.admin.token,
      params: { id: b },
      query: { from: at(-10).toISOString(), to: at(41).toISOString() },
    });
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body.data.periods).toContainEqual({ status: 2, from: at(10).toISOString(), to: at(40).toISOString() });

    // Still offline at the end: new offline devices then, so the rule opens an alert and it is announced.
    await tick(offlineAlertsJob, at(40, 5));
    expect(await openAlertsOf(portal)).toEqual([{ id: expect.any(Number) as number, device_ids: [b, c, s].sort((x, y) => x - y) }]);
    await announceAndSend(t);
    expect((await deliveriesOfChannel()).map((d) => d.event)).toEqual(['alert.opened']);

    // e's last report is older than its timeout: it goes offline when its maintenance ended, not before.
    expect(await sweepOfflineDevices(t.deps, at(41))).toBe(1);
    expect(await deviceRow(a)).toMatchObject({ status: 1 });
    expect(await periodsOf(e)).toEqual([
      [1, at(0).toISOString(), at(10).toISOString()],
      [2, at(10).toISOString(), at(40).toISOString()],
      [1, at(40).toISOString(), at(40).toISOString()],
      [0, at(40).toISOString(), null],
    ]);
    await expectInvariant(cast.tenant.id);
  });

  it('takes effect in the request that creates a window covering now, and ends now when it is deleted', async () => {
    const portal = await createPortal(t, cast.tenant, 'Quay');
    await setClock(at(100));
    await report(portal, [
      { externalId: 'q1', status: 0, at: at(90) },
      { externalId: 'q2', status: 1, at: at(100) },
    ]);
    const [q1, q2] = await Promise.all(['q1', 'q2'].map((e) => idOf(portal, e)));
    const created = await t.call(mw.create, {
      token: cast.pm.token,
      body: { customerId: portal.id, deviceIds: [q1], startsAt: at(95).toISOString(), endsAt: at(200).toISOString() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.inForce).toBe(true);
    expect(await deviceRow(q1)).toMatchObject({ inMaintenance: true, status: 0 });
    expect((await deviceRow(q2)).inMaintenance).toBe(false);
    // History is kept up to the device's open period: maintenance from the window's start.
    expect(await periodsOf(q1)).toEqual([
      [0, at(90).toISOString(), at(95).toISOString()],
      [2, at(95).toISOString(), null],
    ]);

    // Editing the window to the whole portal covers q2 from now (its status began after the window's start).
    await setClock(at(110));
    const edited = await t.call(mw.update, { token: cast.admin.token, params: { id: created.body.data.id }, body: { deviceIds: [] } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await deviceRow(q2)).inMaintenance).toBe(true);
    expect(await periodsOf(q2)).toEqual([
      [1, at(100).toISOString(), at(100).toISOString()],
      [2, at(100).toISOString(), null],
    ]);

    // Removal during maintenance closes the maintenance period; a return opens a period of its status.
    await setClock(at(120));
    expect((await sendWebhook(t, portal, removed('q2'))).status).toBe(202);
    expect(await periodsOf(q2)).toEqual([
      [1, at(100).toISOString(), at(100).toISOString()],
      [2, at(100).toISOString(), at(120).toISOString()],
    ]);
    await expectInvariant(cast.tenant.id);

    await setClock(at(130));
    const deleted = await t.call(mw.remove, { token: cast.admin.token, params: { id: created.body.data.id } });
    expect(deleted.status).toBe(200);
    expect(await deviceRow(q1)).toMatchObject({ inMaintenance: false, status: 0 });
    expect(await periodsOf(q1)).toEqual([
      [0, at(90).toISOString(), at(95).toISOString()],
      [2, at(95).toISOString(), at(130).toISOString()],
      [0, at(130).toISOString(), null],
    ]);
    await report(portal, [{ externalId: 'q2', status: 1, at: at(131) }]);
    expect(await periodsOf(q2)).toEqual([
      [1, at(100).toISOString(), at(100).toISOString()],
      [2, at(100).toISOString(), at(120).toISOString()],
      [1, at(131).toISOString(), null],
    ]);
    await expectInvariant(cast.tenant.id);
  });

  it('ends maintenance now, not at a past end, when an edit takes the occurrence away', async () => {
    const portal = await createPortal(t, cast.tenant, 'Pier');
    await setClock(at(200));
    await report(portal, [{ externalId: 'r1', status: 1, at: at(195) }]);
    const r1 = await idOf(portal, 'r1');
    const created = await t.call(mw.create, {
      token: cast.admin.token,
      body: { customerId: portal.id, startsAt: at(190).toISOString(), endsAt: at(260).toISOString(), recurrence: 'daily' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await setClock(at(210));
    const edited = await t.call(mw.update, {
      token: cast.admin.token,
      params: { id: created.body.data.id },
      body: { endsAt: at(205).toISOString() },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.inForce).toBe(false);
    expect(await periodsOf(r1)).toEqual([
      [1, at(195).toISOString(), at(195).toISOString()],
      [2, at(195).toISOString(), at(210).toISOString()],
      [1, at(210).toISOString(), null],
    ]);
    // The next tick leaves it alone until the next day's occurrence.
    await tick(maintenanceJob, at(215));
    expect((await deviceRow(r1)).inMaintenance).toBe(false);
    await expectInvariant(cast.tenant.id);
  });

  it('resolves an open alert whose offline devices enter maintenance, and opens none before the job has run', async () => {
    const portal = await createPortal(t, cast.tenant, 'Quay');
    await setClock(at(100));
    await report(portal, [{ externalId: 'q1', status: 0, at: at(100) }]);
    await tick(offlineAlertsJob, at(100, 5));
    expect(await openAlertsOf(portal)).toHaveLength(1);

    // The window begins at 110; the job moves q1 into maintenance and the rule resolves its alert.
    const created = await t.call(mw.create, {
      token: cast.pm.token,
      body: { customerId: portal.id, startsAt: at(110).toISOString(), endsAt: at(130).toISOString() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await tick(maintenanceJob, at(110, 1));
    await tick(offlineAlertsJob, at(110, 2));
    expect(await openAlertsOf(portal)).toEqual([]);

    // q3 first reports, offline, inside the window before the job's next tick: the rule opens nothing for it.
    await setClock(at(111));
    await report(portal, [{ externalId: 'q3', status: 0, at: at(111) }]);
    const q3 = await idOf(portal, 'q3');
    expect((await deviceRow(q3)).inMaintenance).toBe(false);
    await tick(offlineAlertsJob, at(111, 1));
    expect(await openAlertsOf(portal)).toEqual([]);
    await tick(maintenanceJob, at(111, 4));
    expect((await deviceRow(q3)).inMaintenance).toBe(true);
    await expectInvariant(cast.tenant.id);
  });
  it('keeps a device covered by overlapping windows in one maintenance period, from the first start to the last end', async () => {
    const portal = await createPortal(t, cast.tenant, 'Overlap');
    await setClock(at(190));
    await report(portal, [
      { externalId: 'x', status: 1, at: at(190) },
      { externalId: 'y', status: 0, at: at(190) },
    ]);
    const [x, y] = [await idOf(portal, 'x'), await idOf(portal, 'y')];
    const schedule = async (body: { deviceIds?: number[]; from: number; to: number }) => {
      const res = await t.call(mw.create, {
        token: cast.admin.token,
        body: {
          customerId: portal.id,
          deviceIds: body.deviceIds ?? [],
          startsAt: at(body.from).toISOString(),
          endsAt: at(body.to).toISOString(),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await schedule({ from: 200, to: 230 });
    await schedule({ deviceIds: [x], from: 220, to: 260 });
    for (const [when, xIn, yIn] of [
      [at(200, 3), true, true],
      [at(220, 3), true, true],
      [at(230, 3), true, false],
      [at(259, 58), true, false],
      [at(260, 3), false, false],
    ] as const) {
      await tick(maintenanceJob, when);
      expect([(await deviceRow(x)).inMaintenance, (await deviceRow(y)).inMaintenance], when.toISOString()).toEqual([xIn, yIn]);
    }
    expect((await periodsOf(x)).slice(1)).toEqual([
      [2, at(200).toISOString(), at(260).toISOString()],
      [1, at(260).toISOString(), null],
    ]);
    expect((await periodsOf(y)).slice(1)).toEqual([
      [2, at(200).toISOString(), at(230).toISOString()],
      [0, at(230).toISOString(), null],
    ]);
    await expectInvariant(cast.tenant.id);
  });

  it('keeps an instant with microseconds exact when a device enters maintenance and, after it, goes offline', async () => {
    // History written by SQL (the demo's seeded periods, SQL-computed instants) has microseconds; a
    // JS Date has milliseconds, and a period closed at the millisecond below its start would overlap.
    const portal = await createPortal(t, cast.tenant, 'Micro');
    await setClock(at(400));
    await report(portal, [{ externalId: 'm1', status: 1, at: at(395) }]);
    const m1 = await idOf(portal, 'm1');
    const micro = (when: Date) => `${when.toISOString().slice(0, -1)}750Z`;
    const startOpenPeriodAt = async (instant: string) => {
      await t.database.exec(`update devices set status_since = '${instant}' where id = ${m1};
        update device_status_periods set started_at = '${instant}' where device_id = ${m1} and ended_at is null`);
    };
    const periodsText = () =>
      queryRows<{ status: number; started_at: string; ended_at: string | null }>(
        t.database.db,
        sql`select status, to_char(started_at at time zone 'UTC', 'HH24:MI:SS.US') as started_at,
                   to_char(ended_at at time zone 'UTC', 'HH24:MI:SS.US') as ended_at
              from device_status_periods where device_id = ${m1} order by started_at, id`,
      );

    await startOpenPeriodAt(micro(at(398)));
    const created = await t.call(mw.create, {
      token: cast.admin.token,
      body: { customerId: portal.id, deviceIds: [m1], startsAt: at(396).toISOString(), endsAt: at(420).toISOString() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await periodsText()).toEqual([
      { status: 1, started_at: '12:38:00.000750', ended_at: '12:38:00.000750' },
      { status: 2, started_at: '12:38:00.000750', ended_at: null },
    ]);
    await expectInvariant(cast.tenant.id);

    // It left maintenance at 12:40 with its last report long before: offline at the instant it left.
    await tick(maintenanceJob, at(420, 1));
    await startOpenPeriodAt(micro(at(420)));
    expect(await sweepOfflineDevices(t.deps, at(431))).toBeGreaterThan(0);
    expect((await periodsText()).slice(2)).toEqual([
      { status: 1, started_at: '13:00:00.000750', ended_at: '13:00:00.000750' },
      { status: 0, started_at: '13:00:00.000750', ended_at: null },
    ]);
    await expectInvariant(cast.tenant.id);
  });
});

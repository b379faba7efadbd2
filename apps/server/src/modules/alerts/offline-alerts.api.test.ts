import { alertEndpoints } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { TOPICS, type AlertOpenedEvent, type DeviceStatusEvent } from '../../events/topics.ts';
import { offlineAlertsJob } from '../../jobs/offline-alerts.job.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { createCast, createDevices, createPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { HOUR_MS, removeDevices, renewTokens, setDeviceStatus } from '../../../test/kits/cases/operations-test-support.ts';
import { offlineAlertsTriggerStartup as operationsJobsStartup } from '../../jobs/offline-alerts-trigger.startup.ts';
import { OPEN_OFFLINE_ALERT } from './offline-alert-rule.repository.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const announced: AlertOpenedEvent[] = [];
const joinedAnnounced: AlertOpenedEvent[] = [];
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
  t.deps.bus.subscribe(TOPICS.alertOpened, (e) => announced.push(e as AlertOpenedEvent));
  t.deps.bus.subscribe(TOPICS.alertJoined, (e) => joinedAnnounced.push(e as AlertOpenedEvent));
});
beforeEach(() => renewTokens(t, [cast.admin, cast.superAdmin, cast.otherAdmin]));
afterAll(() => t.close());

/** Moves to the next 5-second tick and runs the rules there. */
async function tick(): Promise<void> {
  t.clock.advance(offlineAlertsJob.everyMs);
  expect(await runTickOnce(t.deps, offlineAlertsJob)).toBe(true);
}
const alertsOf = async (portalId: number, token = cast.admin.token) =>
  (
    await t.call(alertEndpoints.list, {
      token,
      query: { filter: { customerId: portalId, alertType: 0 }, sort: ['id', 'ASC'], range: [0, 100] },
    })
  ).body.data.list;
const heldBy = async (alertId: number) =>
  (
    await queryRows<{ device_id: number }>(
      t.database.db,
      sql`select device_id from alert_devices where alert_id = ${alertId} order by device_id`,
    )
  ).map((r) => r.device_id);
async function until(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Node = {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Join Type'?: string;
  'CTE Name'?: string;
  'Index Name'?: string;
  'Actual Loops'?: number;
  Plans?: Node[];
};

/** Runs a tick with its statement's plan taken first (`explain (<options>)`, which runs it too when analyzed). */
async function planOfTick(options: 'format json' | 'analyze, format json'): Promise<unknown[]> {
  const prepared = t.deps.database.prepared;
  const plans: unknown[] = [];
  t.deps.database.prepared = {
    rows: async (tx, query) => {
      const [row] = await queryRows<Record<string, unknown>>(tx, sql`explain (${sql.raw(options)}) ${query}`);
      const plan = Object.values(row)[0];
      plans.push(typeof plan === 'string' ? JSON.parse(plan) : plan);
      return prepared.rows(tx, query);
    },
  };
  try {
    await tick();
  } finally {
    t.deps.database.prepared = prepared;
  }
  return plans;
}

describe('Device Offline rules', () => {
  it('keeps one open alert per portal that later offline devices join, and resolves it when they are all back', async () => {
    const portal = await createPortal(t, cast.tenant, 'Dockside');
    const [a, b, c] = await createDevices(t, portal, [{ status: 1 }, { status: 1 }, { status: 1 }]);
    await tick();
    expect(await alertsOf(portal.id)).toEqual([]);

    // Device A goes offline: an alert opens, holding A, and is announced.
    await setDeviceStatus(t, [a.id], 0);
    await tick();
    const [first] = await alertsOf(portal.id);
    const openedAt = t.clock.now().toISOString();
    expect(first).toMatchObject({
      customerName: 'Dockside',
      offlineCount: 1,
      status: 1,
      createdAt: openedAt,
      resolvedAt: null,
      ackedAt: null,
      ackedByName: null,
    });
    expect(await heldBy(first.id)).toEqual([a.id]);
    await until(() => Promise.resolve(announced.some((e) => e.alertId === first.id)));
    expect(announced.filter((e) => e.alertId === first.id)).toEqual([
      { tenantId: cast.tenant.id, alertId: first.id, portalId: portal.id, customerName: 'Dockside', alertType: 0, offlineCount: 1 },
    ]);

    // Device B goes offline later: it joins the same alert (no second alert), announced as joined with the new count.
    await setDeviceStatus(t, [b.id], 0);
    await tick();
    expect(await alertsOf(portal.id)).toMatchObject([{ id: first.id, offlineCount: 2, status: 1, resolvedAt: null, createdAt: openedAt }]);
    expect(await heldBy(first.id)).toEqual([a.id, b.id]);
    await until(() => Promise.resolve(joinedAnnounced.some((e) => e.alertId === first.id)));
    expect(joinedAnnounced.filter((e) => e.alertId === first.id)).toEqual([
      { tenantId: cast.tenant.id, alertId: first.id, portalId: portal.id, customerName: 'Dockside', alertType: 0, offlineCount: 2 },
    ]);

    // A back online: still open (B is offline); A offline again is held already.
    await setDeviceStatus(t, [a.id], 1);
    await tick();
    expect(await alertsOf(portal.id)).toMatchObject([{ id: first.id, offlineCount: 2, status: 1 }]);
    await setDeviceStatus(t, [a.id], 0);
    await tick();
    expect(await alertsOf(portal.id)).toMatchObject([{ id: first.id, offlineCount: 2, status: 1 }]);

    // All back: resolved, with the tick's time.
    await setDeviceStatus(t, [a.id, b.id], 1);
    await tick();
    expect(await alertsOf(portal.id)).toMatchObject([{ id: first.id, status: 0, resolvedAt: t.clock.now().toISOString() }]);

    // The next offline device opens a new alert.
    await setDeviceStatus(t, [c.id], 0);
    await tick();
    const [, second] = await alertsOf(portal.id);
    expect(second).toMatchObject({ offlineCount: 1, status: 1, resolvedAt: null });
    expect(await heldBy(second.id)).toEqual([c.id]);
    await until(() => Promise.resolve(announced.some((e) => e.alertId === second.id)));
    expect(announced.filter((e) => e.alertId === first.id)).toHaveLength(1);
    expect(joinedAnnounced.filter((e) => e.alertId === first.id)).toHaveLength(1);

    // In one tick C comes back and A goes offline: the second resolves, A opens a third (never joins a resolving one).
    await setDeviceStatus(t, [c.id], 1);
    await setDeviceStatus(t, [a.id], 0);
    await tick();
    const [, resolved, third] = await alertsOf(portal.id);
    expect(resolved).toMatchObject({ id: second.id, status: 0, offlineCount: 1 });
    expect(third).toMatchObject({ offlineCount: 1, status: 1 });
    expect(await heldBy(third.id)).toEqual([a.id]);
    expect(await heldBy(second.id)).toEqual([c.id]);

    // Removed devices are out of service: the alert resolves.
    await removeDevices(t, [a.id]);
    await tick();
    expect((await alertsOf(portal.id)).map((x) => x.status)).toEqual([0, 0, 0]);
  });

  it('shows an open alert as status 2 after 24 hours', async () => {
    const portal = await createPortal(t, cast.tenant);
    const [d] = await createDevices(t, portal, [{ status: 0 }]);
    await tick();
    const [alert] = await alertsOf(portal.id);
    t.clock.advance(24 * HOUR_MS);
    await renewTokens(t, [cast.admin]);
    expect((await alertsOf(portal.id))[0].status).toBe(1);
    t.clock.advance(1_000);
    await renewTokens(t, [cast.admin]);
    expect((await t.call(alertEndpoints.get, { params: { id: alert.id }, token: cast.admin.token })).body.data.status).toBe(2);
    const errors = await t.call(alertEndpoints.list, { token: cast.admin.token, query: { filter: { status: 2 }, range: [0, 100] } });
    expect(errors.body.data.list.map((a) => a.id)).toContain(alert.id);
    await setDeviceStatus(t, [d.id], 1);
    await tick();
    expect((await alertsOf(portal.id))[0].status).toBe(0);
  });

  it("keeps each tenant's alerts to itself and runs each tick once", async () => {
    const ours = await createPortal(t, cast.tenant);
    const theirs = await createPortal(t, cast.other);
    await createDevices(t, ours, [{ status: 0 }]);
    await createDevices(t, theirs, [{ status: 0 }, { status: 0 }]);
    t.clock.advance(offlineAlertsJob.everyMs);
    const runs = await Promise.all([
      runTickOnce(t.deps, offlineAlertsJob),
      runTickOnce(t.deps, offlineAlertsJob),
      runTickOnce(t.deps, offlineAlertsJob),
    ]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await alertsOf(theirs.id)).toEqual([]);
    expect(await alertsOf(theirs.id, cast.otherAdmin.token)).toMatchObject([{ offlineCount: 2, tenantName: cast.other.name }]);
    expect(await alertsOf(ours.id)).toHaveLength(1);
    const [count] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from alerts where portal_id in (${ours.id}, ${theirs.id})`,
    );
    expect(count.n).toBe(2);
  });

  it('opens the alerts of many portals in one tick, each holding its own devices, counted and announced', async () => {
    const portals = [
      await createPortal(t, cast.tenant, 'North'),
      await createPortal(t, cast.tenant, 'South'),
      await createPortal(t, cast.other, 'East'),
    ];
    const devices = [
      await createDevices(t, portals[0], [{ status: 0 }, { status: 1 }, { status: 0 }]),
      await createDevices(t, portals[1], [{ status: 0 }]),
      await createDevices(t, portals[2], [{ status: 0 }, { status: 0 }]),
    ];
    // A device already held by an open alert is not held again; a later one joins its portal's open alert.
    await tick();
    const [late] = await createDevices(t, portals[1], [{ status: 0 }]);
    await tick();

    const tokens = [cast.admin.token, cast.admin.token, cast.otherAdmin.token];
    const alerts = await Promise.all(portals.map((p, i) => alertsOf(p.id, tokens[i])));
    expect(alerts.map((list) => list.map((a) => a.offlineCount))).toEqual([[2], [2], [2]]);
    expect(alerts.map((list) => list[0].customerName)).toEqual(['North', 'South', 'East']);
    expect(await heldBy(alerts[0][0].id)).toEqual([devices[0][0].id, devices[0][2].id]);
    expect(await heldBy(alerts[1][0].id)).toEqual([devices[1][0].id, late.id]);
    expect(await heldBy(alerts[2][0].id)).toEqual(devices[2].map((d) => d.id));
    const tenants = [cast.tenant.id, cast.tenant.id, cast.other.id];
    const countsWhenOpened = [2, 1, 2];
    for (const [i, [alert]] of alerts.entries()) {
      await until(() => Promise.resolve(announced.some((e) => e.alertId === alert.id)));
      expect(announced.filter((e) => e.alertId === alert.id)).toEqual([
        {
          tenantId: tenants[i],
          alertId: alert.id,
          portalId: portals[i].id,
          customerName: portals[i].name,
          alertType: 0,
          offlineCount: countsWhenOpened[i],
        },
      ]);
    }
  });

  it("resolves a deleted portal's alert, and opens none for its offline devices", async () => {
    const portal = await createPortal(t, cast.tenant);
    await createDevices(t, portal, [{ status: 0 }]);
    await tick();
    const [alert] = await alertsOf(portal.id);
    expect(alert).toMatchObject({ status: 1 });
    await t.database.db.execute(sql`update portals set deleted_at = now() where id = ${portal.id}`);
    await tick();
    const rows = await queryRows<{ resolved: boolean; n: number }>(
      t.database.db,
      sql`select bool_and(resolved_at is not null) as resolved, count(*)::int as n from alerts where portal_id = ${portal.id}`,
    );
    expect(rows[0]).toEqual({ resolved: true, n: 1 });
  });

  it('finds the open Device Offline alerts through their partial index (migration 0007)', async () => {
    const [index] = await queryRows<{ indexdef: string }>(
      t.database.db,
      sql`select indexdef from pg_indexes where indexname = 'alerts_open_offline_idx'`,
    );
    expect(index?.indexdef).toMatch(
      /ON public\.alerts USING btree \(tenant_id, id\) WHERE \(\(alert_type = 0\) AND \(resolved_at IS NULL\)\)/,
    );
    // The rule's own condition is one the index's predicate covers: with sequential scans off it is the plan.
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return queryRows<Record<string, string>>(tx, sql`explain select a.id from alerts a where ${OPEN_OFFLINE_ALERT}`);
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain('alerts_open_offline_idx');
  });

  it('compares no device against a materialized list of the held devices, whatever the statistics', async () => {
    // Without statistics (this database is never analyzed) the planner guessed one held device and joined every
    // open alert, then every offline device, against all the held ones in nested loops: at 10,000 offline devices
    // a tick outlived PostgreSQL's 30 s statement timeout. The rule now looks each one up through a key instead.
    const portal = await createPortal(t, cast.tenant, 'Plan check');
    const devices = await createDevices(t, portal, [{ status: 1 }, { status: 1 }, { status: 1 }]);
    await setDeviceStatus(t, [devices[0].id, devices[1].id], 0);
    await tick();
    await setDeviceStatus(t, [devices[2].id], 0);
    const plans = await planOfTick('format json');
    expect(plans).toHaveLength(1);
    // The CTEs a node's rows come from (not its InitPlans or SubPlans, which are the row-level security's and the lookups').
    const ctesIn = (node: Node): string[] => [
      ...(node['Node Type'] === 'CTE Scan' ? [node['CTE Name']!] : []),
      ...(node.Plans ?? []).filter((c) => ['Outer', 'Inner', 'Member'].includes(c['Parent Relationship'] ?? '')).flatMap(ctesIn),
    ];
    const joinsOverCte: string[] = [];
    const walk = (node: Node) => {
      // The inner side, read again for every outer row in a nested loop; `target` holds at most one row per portal.
      const inner = node.Plans?.find((c) => c['Parent Relationship'] === 'Inner');
      if (node['Node Type'] === 'Nested Loop' && (node['Join Type'] === 'Anti' || node['Join Type'] === 'Semi') && inner)
        joinsOverCte.push(
          ...ctesIn(inner)
            .filter((name) => name !== 'target')
            .map((name) => `${node['Join Type']} join over ${name}`),
        );
      (node.Plans ?? []).forEach(walk);
    };
    walk((plans[0] as [{ Plan: Node }])[0].Plan);
    expect(joinsOverCte).toEqual([]);
    expect(await heldBy((await alertsOf(portal.id))[0].id)).toEqual(devices.map((d) => d.id));
  });

  it("reads one alert of each held offline device a tick, whatever the device's history", async () => {
    // A held device's open alert is its newest, read first through alert_devices_device_idx (tenant, device,
    // alert). Oldest first, a device offline for the fifth time read its four resolved alerts before the open one,
    // every tick: at L after the bench's ingestion (65,728 offline devices, 8.7 alerts each) 570,000 alerts a tick.
    const portal = await createPortal(t, cast.tenant, 'Long history');
    const [flaky, steady] = await createDevices(t, portal, [{ status: 1 }, { status: 1 }]);
    for (let outage = 0; outage < 4; outage++) {
      await setDeviceStatus(t, [flaky.id], 0);
      await tick();
      await setDeviceStatus(t, [flaky.id], 1);
      await tick();
    }
    expect((await alertsOf(portal.id)).map((a) => a.status)).toEqual([0, 0, 0, 0]);
    await setDeviceStatus(t, [flaky.id, steady.id], 0);
    await tick();
    expect(await heldBy((await alertsOf(portal.id))[4].id)).toEqual([flaky.id, steady.id]);

    const plans = await planOfTick('analyze, format json');
    const find = (node: Node, index: string): Node[] => [
      ...(node['Index Name'] === index ? [node] : []),
      ...(node.Plans ?? []).flatMap((child) => find(child, index)),
    ];
    // The held check: per offline device the rule reads (the two above among them, in this file's database), its
    // alert_devices rows, each one's alert probed until an open one is found. One probe per lookup: every device's
    // first (newest) row named its open alert. (EXPLAIN's "Rows Removed by Filter" is a per-loop mean, rounded.)
    const [lookup] = find((plans[0] as [{ Plan: Node }])[0].Plan, 'alert_devices_device_idx');
    const probes = find(lookup, 'alerts_open_offline_idx');
    expect(lookup['Actual Loops']).toBeGreaterThanOrEqual(2);
    expect(probes.map((n) => n['Actual Loops'])).toEqual([lookup['Actual Loops']]);
    expect(await alertsOf(portal.id)).toHaveLength(5);
  });

  it("opens and joins alerts without locking the devices' rows", async () => {
    // alert_devices has no foreign key to devices (migration 0021_alert_devices_no_device_lock): its check took a
    // KEY SHARE lock on every device an alert opened or joined, the rows every report updates (docs/alerts.md). A
    // lock is written into the row (xmax): the rule's ticks must leave the devices' rows as the reports left them.
    const portal = await createPortal(t, cast.tenant, 'No locks');
    const [first, second] = await createDevices(t, portal, [{ status: 1 }, { status: 1 }]);
    const xmax = async () =>
      (
        await queryRows<{ xmax: string }>(
          t.database.db,
          sql`select xmax::text as xmax from devices where id in (${first.id}, ${second.id}) order by id`,
        )
      ).map((r) => r.xmax);
    await setDeviceStatus(t, [first.id], 0);
    const beforeOpening = await xmax();
    await tick();
    expect(await xmax()).toEqual(beforeOpening);
    await setDeviceStatus(t, [second.id], 0);
    const beforeJoining = await xmax();
    await tick();
    expect(await xmax()).toEqual(beforeJoining);
    const [alert] = await alertsOf(portal.id);
    expect(await heldBy(alert.id)).toEqual([first.id, second.id]);
  });

  it('runs soon after a device status event, through the tick claim', async () => {
    const stop = await operationsJobsStartup(t.deps, t.app);
    try {
      const portal = await createPortal(t, cast.tenant);
      const [d] = await createDevices(t, portal, [{ status: 1 }]);
      t.clock.advance(offlineAlertsJob.everyMs);
      await setDeviceStatus(t, [d.id], 0);
      const event: DeviceStatusEvent = {
        tenantId: cast.tenant.id,
        portalId: portal.id,
        offline: [d.id],
        online: [],
        at: t.clock.now().toISOString(),
      };
      await t.deps.bus.publish(TOPICS.deviceStatus, event);
      await until(async () => (await alertsOf(portal.id)).length === 1);

      // Same tick already claimed: a second change waits for the next tick, then joins the open alert.
      const [e] = await createDevices(t, portal, [{ status: 0 }]);
      await t.deps.bus.publish(TOPICS.deviceStatus, { ...event, offline: [e.id] });
      await new Promise((r) => setTimeout(r, 600));
      expect(await alertsOf(portal.id)).toMatchObject([{ offlineCount: 1 }]);
      t.clock.advance(offlineAlertsJob.everyMs);
      await t.deps.bus.publish(TOPICS.deviceStatus, { ...event, offline: [e.id] });
      await until(async () => (await alertsOf(portal.id))[0]?.offlineCount === 2);
      expect(await alertsOf(portal.id)).toHaveLength(1);
    } finally {
      if (stop) await stop();
    }
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TOPICS, type DeviceStatusEvent } from '../events/topics.ts';
import { deviceState, periodsOf, reported, sendWebhook } from '../../test/kits/webhooks/webhook-test-kit.ts';
import { createPortal, createTenant, type TestPortal } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { sweepOfflineDevices } from '../modules/devices/index.ts';
import { offlineSweepJob } from './offline-sweep.job.ts';
import { runTickOnce } from './scheduler.ts';

let t: TestApp;
const MIN = 60_000;
const START = new Date('2026-11-22T06:00:00.000Z');
const at = (minutes: number) => new Date(START.getTime() + minutes * MIN);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(START));

async function portalWithTimeout(minutes: number): Promise<TestPortal> {
  return createPortal(t, await createTenant(t, { heartbeatTimeout: minutes }));
}

describe('offline sweep', () => {
  it('turns a silent device offline at its last report + the tenant timeout, not at the time of the sweep, and only once', async () => {
    const portal = await portalWithTimeout(10);
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: START }]));
    t.clock.set(at(9));
    expect(await sweepOfflineDevices(t.deps, t.clock.now())).toBe(0);
    t.clock.set(at(17));
    expect(await sweepOfflineDevices(t.deps, t.clock.now())).toBe(1);
    const cam = (await deviceState(t, portal.id, 'cam'))!;
    expect(cam).toMatchObject({
      status: 0,
      status_since: at(10).toISOString(),
      last_online: START.toISOString(),
      last_report_at: START.toISOString(),
    });
    expect(await periodsOf(t, cam.id)).toEqual([
      { status: 1, from: START.toISOString(), to: at(10).toISOString() },
      { status: 0, from: at(10).toISOString(), to: null },
    ]);
    t.clock.set(at(30));
    expect(await sweepOfflineDevices(t.deps, t.clock.now())).toBe(0);
    expect(await periodsOf(t, cam.id)).toHaveLength(2);
  });

  it('goes offline exactly at the deadline (last report + timeout <= now)', async () => {
    const portal = await portalWithTimeout(10);
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: START }]));
    expect(await sweepOfflineDevices(t.deps, new Date(at(10).getTime() - 1))).toBe(0);
    expect(await sweepOfflineDevices(t.deps, at(10))).toBe(1);
  });

  it("respects each tenant's heartbeatTimeout", async () => {
    const quick = await portalWithTimeout(2);
    const slow = await portalWithTimeout(60);
    await sendWebhook(t, quick, reported([{ externalId: 'q', status: 1, at: START }]));
    await sendWebhook(t, slow, reported([{ externalId: 's', status: 1, at: START }]));
    expect(await sweepOfflineDevices(t.deps, at(5))).toBe(1);
    expect((await deviceState(t, quick.id, 'q'))!.status).toBe(0);
    expect((await deviceState(t, slow.id, 's'))!.status).toBe(1);
    expect(await sweepOfflineDevices(t.deps, at(61))).toBe(1);
    expect((await deviceState(t, slow.id, 's'))!.status_since).toBe(at(60).toISOString());
  });

  it('leaves alone devices that keep reporting, offline devices and removed devices', async () => {
    const portal = await portalWithTimeout(10);
    await sendWebhook(
      t,
      portal,
      reported([
        { externalId: 'alive', status: 1, at: START },
        { externalId: 'down', status: 0, at: START },
        { externalId: 'gone', status: 1, at: START },
      ]),
    );
    await sendWebhook(t, portal, { type: 'device.removed', data: { externalId: 'gone' } });
    t.clock.set(at(8));
    await sendWebhook(t, portal, reported([{ externalId: 'alive', status: 1, at: at(8) }]));
    expect(await sweepOfflineDevices(t.deps, at(15))).toBe(0);
    const down = (await deviceState(t, portal.id, 'down'))!;
    expect(await periodsOf(t, down.id)).toEqual([{ status: 0, from: START.toISOString(), to: null }]);
  });

  it('publishes devices.status per portal with the devices that went offline', async () => {
    const a = await portalWithTimeout(10);
    const b = await portalWithTimeout(10);
    await sendWebhook(
      t,
      a,
      reported([
        { externalId: 'a1', status: 1, at: START },
        { externalId: 'a2', status: 1, at: START },
      ]),
    );
    await sendWebhook(t, b, reported([{ externalId: 'b1', status: 1, at: START }]));
    const events: DeviceStatusEvent[] = [];
    // On PostgreSQL the webhooks' own events (devices coming online) may still be arriving: keep only the sweep's.
    const stop = t.deps.bus.subscribe(TOPICS.deviceStatus, (e) => {
      if ((e as DeviceStatusEvent).offline.length > 0) events.push(e as DeviceStatusEvent);
    });
    try {
      expect(await sweepOfflineDevices(t.deps, at(11))).toBe(3);
      await expect.poll(() => events.length).toBe(2);
      const ofA = events.find((e) => e.portalId === a.id)!;
      expect(ofA).toMatchObject({ tenantId: a.tenantId, online: [], at: at(10).toISOString() });
      expect(ofA.offline).toHaveLength(2);
      expect(events.find((e) => e.portalId === b.id)!.offline).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('runs once per 30-second tick however often it is triggered', async () => {
    const portal = await portalWithTimeout(1);
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: START }]));
    t.clock.set(new Date(at(2).getTime() + 1000));
    expect(await runTickOnce(t.deps, offlineSweepJob)).toBe(true);
    expect(await runTickOnce(t.deps, offlineSweepJob)).toBe(false);
    expect((await deviceState(t, portal.id, 'cam'))!.status).toBe(0);
    const rows = await t.database.db.execute(sql`select count(*)::int as n from job_runs where job = ${offlineSweepJob.name}`);
    expect(Number((rows as { rows: { n: number }[] }).rows[0].n)).toBe(1);
    t.clock.advance(30_000);
    expect(await runTickOnce(t.deps, offlineSweepJob)).toBe(true);
  });
});

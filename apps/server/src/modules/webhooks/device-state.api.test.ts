import { describe, expect, it } from 'vitest';
import { TOPICS, type DeviceStatusEvent } from '../../events/topics.ts';
import { sweepOfflineDevices } from '../devices/index.ts';
import type { TestPortal } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { newPortalEachTest } from '../../../test/kits/webhooks/portal-each-test.ts';
import { countRows, deviceState, periodsOf, removed, reported, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * What a device's reports do to its state and its status history (docs/monitoring.md "Device state and
 * history"): changes, late and delayed reports, several reports in one message, removal and return, and
 * the devices.status event at commit. The webhook's signature, idempotency and validation are in
 * webhooks.api.test.ts.
 */
let t: TestApp;
let portal: TestPortal;
const MIN = 60_000;
const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

newPortalEachTest((app, fresh) => {
  t = app;
  portal = fresh;
});

describe('device state and history', () => {
  it('records a status change as a closed period and a new one; lastOnline keeps the last online report', async () => {
    const t1 = ago(20 * MIN);
    const t2 = ago(10 * MIN);
    const t3 = ago(5 * MIN);
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: t1 }]));
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: t2, name: 'Renamed', deviceType: 3 }]));
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 0, at: t3 }]));
    const cam = (await deviceState(t, portal.id, 'cam'))!;
    expect(cam).toMatchObject({
      status: 0,
      last_report_at: t3.toISOString(),
      last_online: t2.toISOString(),
      status_since: t3.toISOString(),
      first_seen_at: t1.toISOString(),
    });
    expect(await periodsOf(t, cam.id)).toEqual([
      { status: 1, from: t1.toISOString(), to: t3.toISOString() },
      { status: 0, from: t3.toISOString(), to: null },
    ]);
  });

  it('keeps a late report without flipping the state or rewriting history', async () => {
    const t1 = ago(20 * MIN);
    const t2 = ago(10 * MIN);
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: t2 }]));
    const cam = (await deviceState(t, portal.id, 'cam'))!;
    const before = await periodsOf(t, cam.id);
    const res = await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 0, at: t1 }]));
    expect(res).toEqual({ status: 202, body: { data: { accepted: 1 } } });
    expect(await deviceState(t, portal.id, 'cam')).toMatchObject({
      status: 1,
      last_report_at: t2.toISOString(),
      status_since: t2.toISOString(),
    });
    expect(await periodsOf(t, cam.id)).toEqual(before);
    expect(await countRows(t, 'late_device_reports', portal.id)).toBe(1);
  });

  it("changes the status on a delayed report no earlier than the offline sweep's instant, so history is not rewritten", async () => {
    await t.database.exec(`update tenants set heartbeat_timeout = 10 where id = ${portal.tenantId}`);
    const t0 = t.clock.now();
    const plus = (minutes: number) => new Date(t0.getTime() + minutes * MIN).toISOString();
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: t0 }]));
    t.clock.set(plus(12));
    expect(await sweepOfflineDevices(t.deps, t.clock.now())).toBeGreaterThan(0);
    expect(await deviceState(t, portal.id, 'cam')).toMatchObject({ status: 0, status_since: plus(10) });
    // The device sends what it buffered: a report of minute 5, newer than its last, older than the sweep's minute 10.
    t.clock.set(plus(13));
    const res = await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: new Date(plus(5)) }]));
    expect(res).toEqual({ status: 202, body: { data: { accepted: 1 } } });
    const cam = (await deviceState(t, portal.id, 'cam'))!;
    expect(cam).toMatchObject({ status: 1, last_report_at: plus(5), last_online: plus(5), status_since: plus(10) });
    expect(await periodsOf(t, cam.id)).toEqual([
      { status: 1, from: t0.toISOString(), to: plus(10) },
      { status: 0, from: plus(10), to: plus(10) },
      { status: 1, from: plus(10), to: null },
    ]);
    expect(await countRows(t, 'late_device_reports', portal.id)).toBe(0);
  });

  it('applies several reports for one device in one message in `at` order, whatever their order in the message', async () => {
    const [t1, t2, t3] = [ago(30 * MIN), ago(20 * MIN), ago(10 * MIN)];
    await sendWebhook(
      t,
      portal,
      reported([
        { externalId: 'cam', status: 1, at: t3 },
        { externalId: 'other', status: 1, at: t1 },
        { externalId: 'cam', status: 1, at: t1 },
        { externalId: 'cam', status: 0, at: t2 },
      ]),
    );
    const cam = (await deviceState(t, portal.id, 'cam'))!;
    expect(cam).toMatchObject({
      status: 1,
      last_report_at: t3.toISOString(),
      last_online: t3.toISOString(),
      first_seen_at: t1.toISOString(),
    });
    expect(await periodsOf(t, cam.id)).toEqual([
      { status: 1, from: t1.toISOString(), to: t2.toISOString() },
      { status: 0, from: t2.toISOString(), to: t3.toISOString() },
      { status: 1, from: t3.toISOString(), to: null },
    ]);
  });

  it('device.removed hides the device and closes its period; a later report brings it back with a new period', async () => {
    const t1 = ago(30 * MIN);
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: t1 }]));
    const res = await sendWebhook(t, portal, removed('cam'));
    expect(res).toEqual({ status: 202, body: { data: { accepted: 1 } } });
    const cam = (await deviceState(t, portal.id, 'cam'))!;
    expect(cam.removed_at).toBe(t.clock.now().toISOString());
    expect(await periodsOf(t, cam.id)).toEqual([{ status: 1, from: t1.toISOString(), to: t.clock.now().toISOString() }]);
    // Removing an unknown (or already removed) device accepts nothing and changes nothing.
    expect(await sendWebhook(t, portal, removed('cam'))).toEqual({ status: 202, body: { data: { accepted: 0 } } });
    // A report older than the removal is late; a newer one un-removes the device.
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 1, at: ago(MIN) }]));
    expect((await deviceState(t, portal.id, 'cam'))!.removed_at).toBe(t.clock.now().toISOString());
    t.clock.advance(2 * MIN);
    const back = t.clock.now();
    await sendWebhook(t, portal, reported([{ externalId: 'cam', status: 0, at: back }]));
    expect(await deviceState(t, portal.id, 'cam')).toMatchObject({ removed_at: null, status: 0, status_since: back.toISOString() });
    expect((await periodsOf(t, cam.id)).at(-1)).toEqual({ status: 0, from: back.toISOString(), to: null });
  });

  it('publishes devices.status at commit with the devices that went offline or came online', async () => {
    const events: DeviceStatusEvent[] = [];
    const stop = t.deps.bus.subscribe(TOPICS.deviceStatus, (e) => events.push(e as DeviceStatusEvent));
    try {
      await sendWebhook(
        t,
        portal,
        reported([
          { externalId: 'a', status: 1, at: ago(3 * MIN) },
          { externalId: 'b', status: 1, at: ago(3 * MIN) },
        ]),
      );
      const a = (await deviceState(t, portal.id, 'a'))!;
      await sendWebhook(
        t,
        portal,
        reported([
          { externalId: 'a', status: 0, at: ago(MIN) },
          { externalId: 'b', status: 1, at: ago(MIN) },
        ]),
      );
      await expect.poll(() => events.length).toBe(2);
      expect(events[1]).toEqual({
        tenantId: portal.tenantId,
        portalId: portal.id,
        offline: [a.id],
        online: [],
        at: ago(MIN).toISOString(),
      });
      // No change, no event.
      await sendWebhook(t, portal, reported([{ externalId: 'b', status: 1, at: ago(30_000) }]));
      await new Promise((r) => setTimeout(r, 100));
      expect(events).toHaveLength(2);
    } finally {
      stop();
    }
  });
});

import { NOTIFY_MSG, notificationChannelEndpoints as ch } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createDevices, createPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { announceAndSend, deliveryRows, openAlert, secondApp, startReceiver } from '../../../test/kits/notifications/notify-test-kit.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { announce, CLAIM_MS, retryDelayMs, sendAllDue, sendDue } from './index.ts';

/**
 * Deliveries survive the process: a retry due when the first process stopped is sent by the next
 * one, a sender that stalls past its claim does not record over the one that took over, and the
 * outbound rules are checked again at send time.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const ALLOW = { NOTIFY_ALLOW_PRIVATE_TARGETS: '1' };
const others: { close(): Promise<void> }[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  t = await createTestApp({ env: ALLOW });
  cast = await createCast(t);
  receiver = await startReceiver({ statuses: [500] });
});
afterAll(async () => {
  for (const o of others) await o.close();
  await receiver.close();
});

async function hookChannel(url: string) {
  const res = await t.call(ch.create, {
    token: cast.admin.token,
    body: { name: `Hook ${url}`, type: 'webhook', target: url, delayMinutes: 0 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('deliveries across processes', () => {
  it('a retry pending when the process stopped is sent once by the next process, with the same webhook-id', async () => {
    const portal = await createPortal(t, cast.tenant);
    const [device] = await createDevices(t, portal, [{ status: 1 }]);
    await hookChannel(receiver.url);
    const alertId = await openAlert(t, portal, [device.id]);
    await announceAndSend(t);
    await receiver.waitFor(1);
    expect((await deliveryRows(t.database))[0]).toMatchObject({ alert_id: alertId, status: 'pending', attempts: 1 });
    const stoppedAt = t.clock.now();
    const database = t.database;
    await t.close();

    const next = await secondApp(database, new Date(stoppedAt.getTime() + retryDelayMs(1)), ALLOW);
    others.push(next);
    await sendAllDue(next.deps);
    next.clock.advance(2 * 60 * 60_000);
    await sendAllDue(next.deps);
    await announceAndSend(next);
    const got = await receiver.waitFor(2);
    expect(got.map((r) => r.status)).toEqual([500, 200]);
    expect(got[1].headers['webhook-id']).toBe(got[0].headers['webhook-id']);
    expect(await deliveryRows(database)).toEqual([expect.objectContaining({ alert_id: alertId, status: 'sent', attempts: 2 })]);
  });

  it('a sender stalled past its claim leaves the delivery to another; its late answer records nothing', async () => {
    const database = (others[0] as Awaited<ReturnType<typeof secondApp>>).database;
    const a = others[0] as Awaited<ReturnType<typeof secondApp>>;
    const portal = await createPortal({ ...t, database }, cast.tenant);
    const [device] = await createDevices({ ...t, database, clock: a.clock }, portal, [{ status: 1 }]);
    const alertId = await openAlert({ database, clock: a.clock }, portal, [device.id]);
    const before = receiver.received.length;
    receiver.holdNext(1);
    a.clock.advance(2_000);
    await announce(a.deps, a.clock.now());
    const stalled = sendDue(a.deps);
    await receiver.waitForArrivals(before + 1);

    const b = await secondApp(database, new Date(a.clock.now().getTime() + CLAIM_MS + 1_000), ALLOW);
    others.push(b);
    await sendAllDue(b.deps);
    await receiver.waitFor(before + 1);
    receiver.release();
    await stalled;
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(2);
    expect(got[0].headers['webhook-id']).toBe(got[1].headers['webhook-id']);
    const row = (await deliveryRows(database)).find((d) => d.alert_id === alertId);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('refuses a private target at send time when private targets are not allowed', async () => {
    const a = others[0] as Awaited<ReturnType<typeof secondApp>>;
    const database = a.database;
    const portal = await createPortal({ ...t, database }, cast.tenant);
    const [device] = await createDevices({ ...t, database, clock: a.clock }, portal, [{ status: 1 }]);
    const strict = await secondApp(database, new Date(a.clock.now().getTime() + 5_000), {});
    others.push(strict);
    const alertId = await openAlert({ database, clock: strict.clock }, portal, [device.id]);
    const before = receiver.received.length;
    await announceAndSend(strict);
    expect(receiver.received.length).toBe(before);
    const row = (await deliveryRows(database)).find((d) => d.alert_id === alertId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    const [err] = await queryRows<{ last_error: string }>(
      database.db,
      sql`select last_error from notification_deliveries where id = ${row!.id}`,
    );
    expect(err.last_error).toBe(NOTIFY_MSG.privateTarget);
  });
});

import { LIVE_EVENTS_STREAM_PATH, liveEventsEndpoints } from '@vigil/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema/index.ts';
import { TOPICS } from '../../events/topics.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { createCast, createDevices, createPortal, createUser, type TestPortal } from '../../../test/factories.ts';
import { devicesReported, signWebhook, webhookUrlOf } from '../../simulator/index.ts';
import { liveHubs } from './live-events.routes.ts';
import { openSse, type SseEvent } from './sse-client.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let acme: TestPortal;
let bravo: TestPortal;
let foreign: TestPortal;
let baseUrl: string;
const MIN = 60_000;
const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  cast = await createCast(t);
  acme = await createPortal(t, cast.tenant, 'Acme Logistics');
  bravo = await createPortal(t, cast.tenant, 'bravo Storage');
  foreign = await createPortal(t, cast.other, 'Foreign Bank');
  await createPortal(t, cast.tenant, 'Calm Clinic'); // no offline device: no row
  await createDevices(t, acme, [{ status: 0, since: ago(30 * MIN) }, { status: 0, since: ago(90 * MIN) }, { status: 1 }]);
  await createDevices(t, bravo, [{ status: 0, since: ago(10 * MIN) }]);
  await createDevices(t, foreign, [{ status: 0, since: ago(5 * MIN) }]);
});
afterAll(() => t.close());

describe('GET /live-events', () => {
  it('lists one row per portal with offline devices, longest outage first, for every tenant role', async () => {
    for (const user of [cast.admin, cast.pm, cast.salesman]) {
      const res = await t.call(liveEventsEndpoints.list, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        count: 2,
        list: [
          { customerId: acme.id, customerName: 'Acme Logistics', offlineCount: 2, offlineSince: ago(90 * MIN).toISOString() },
          { customerId: bravo.id, customerName: 'bravo Storage', offlineCount: 1, offlineSince: ago(10 * MIN).toISOString() },
        ],
      });
    }
  });

  it('sorts on customerName, offlineCount and offlineSince and filters on customerId and q', async () => {
    const call = (query: object) => t.call(liveEventsEndpoints.list, { token: cast.admin.token, query });
    const names = async (query: object) => (await call(query)).body.data.list.map((r) => r.customerName);
    expect(await names({ sort: ['customerName', 'DESC'] })).toEqual(['bravo Storage', 'Acme Logistics']);
    expect(await names({ sort: ['offlineCount', 'ASC'] })).toEqual(['bravo Storage', 'Acme Logistics']);
    expect(await names({ sort: ['offlineSince', 'DESC'] })).toEqual(['bravo Storage', 'Acme Logistics']);
    expect(await names({ filter: { q: 'ACME' } })).toEqual(['Acme Logistics']);
    expect(await names({ filter: { customerId: bravo.id } })).toEqual(['bravo Storage']);
    expect(await names({ filter: { customerId: foreign.id } })).toEqual([]);
    const page = await call({ range: [1, 1] });
    expect(page.body.data).toMatchObject({ count: 2, list: [{ customerName: 'bravo Storage' }] });
    expect((await call({ sort: ['tenantId', 'ASC'] })).status).toBe(400);
    expect((await call({ filter: { status: 0 } })).status).toBe(400);
  });

  it('gives the superAdmin every tenant with tenant names, filterable by tenantName', async () => {
    const res = await t.call(liveEventsEndpoints.list, {
      token: cast.superAdmin.token,
      query: { filter: { tenantName: cast.other.name } },
    });
    expect(res.body.data.list).toEqual([
      {
        customerId: foreign.id,
        customerName: 'Foreign Bank',
        tenantName: cast.other.name,
        offlineCount: 1,
        offlineSince: ago(5 * MIN).toISOString(),
      },
    ]);
  });

  it('refuses anonymous and tenantless callers', async () => {
    expect((await t.call(liveEventsEndpoints.list)).status).toBe(401);
    const lonely = await createUser(t, { tenant: null, roles: [] });
    expect((await t.call(liveEventsEndpoints.list, { token: lonely.token })).status).toBe(403);
    expect((await t.call(liveEventsEndpoints.ticket, { token: lonely.token, body: {} })).status).toBe(403);
  });
});

async function ticketFor(token: string): Promise<string> {
  const res = await t.call(liveEventsEndpoints.ticket, { token, body: {} });
  expect(res.status).toBe(200);
  return res.body.data.ticket;
}
const streamUrl = (ticket: string) => `${baseUrl}${LIVE_EVENTS_STREAM_PATH}?ticket=${encodeURIComponent(ticket)}`;

/** Reports one device through the portal's real signed webhook; answers the device id. */
async function report(portal: TestPortal, externalId: string, status: 0 | 1, at: Date): Promise<number> {
  const body = devicesReported([
    { externalId, name: `Door ${externalId}`, deviceType: 2, deviceModel: 'HID Signo 40', status, at: at.toISOString() },
  ]);
  const message = signWebhook(portal.webhookSecret, body, { timestamp: t.clock.now() });
  const res = await fetch(webhookUrlOf(baseUrl, portal.id), { method: 'POST', headers: message.headers, body: message.body });
  expect(res.status).toBe(202);
  const [row] = await t.database.db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.portalId, portal.id), eq(devices.externalId, externalId)));
  return row.id;
}

describe('live-events stream', () => {
  it('issues tickets valid 60 s that open the stream once', async () => {
    const res = await t.call(liveEventsEndpoints.ticket, { token: cast.pm.token, body: {} });
    expect(new Date(res.body.data.expiresAt).getTime()).toBe(t.clock.now().getTime() + 60_000);
    const first = await openSse(streamUrl(res.body.data.ticket));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    expect(first.headers.get('cache-control')).toContain('no-cache');
    expect(first.headers.get('x-accel-buffering')).toBe('no');
    expect(first.headers.get('x-request-id')).toBeTruthy();
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    first.close();
    const again = await fetch(streamUrl(res.body.data.ticket));
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect((await fetch(streamUrl('made-up'))).status).toBe(401);
    expect((await fetch(`${baseUrl}${LIVE_EVENTS_STREAM_PATH}`)).status).toBe(401);
  });

  it('refuses an expired ticket', async () => {
    const ticket = await ticketFor(cast.admin.token);
    t.clock.advance(61_000);
    try {
      expect((await fetch(streamUrl(ticket))).status).toBe(401);
    } finally {
      t.clock.advance(-61_000);
    }
  });

  it('sends the snapshot on connect', async () => {
    const sse = await openSse(streamUrl(await ticketFor(cast.salesman.token)));
    try {
      const snapshot = await sse.next((e) => e.event === 'snapshot');
      expect(snapshot.data).toMatchObject({
        summary: { offlineCount: 3, onlineCount: 1 },
        liveEvents: [
          { customerId: acme.id, offlineCount: 2 },
          { customerId: bravo.id, offlineCount: 1 },
        ],
      });
    } finally {
      sse.close();
    }
  });

  it("pushes a device going offline (signed webhook) within 1 s to its tenant and the superAdmin, never to another tenant's stream", async () => {
    const own = await openSse(streamUrl(await ticketFor(cast.admin.token)));
    const other = await openSse(streamUrl(await ticketFor(cast.otherAdmin.token)));
    const platform = await openSse(streamUrl(await ticketFor(cast.superAdmin.token)));
    try {
      await Promise.all([own, other, platform].map((s) => s.next((e) => e.event === 'snapshot')));
      const deviceId = await report(acme, 'door-1', 1, ago(MIN));
      const sent = Date.now();
      await report(acme, 'door-1', 0, t.clock.now());
      const isAcmeChange = (e: SseEvent) => e.event === 'devices' && (e.data as { offline: number[] }).offline.includes(deviceId);
      const pushed = await own.next(isAcmeChange, 1000);
      expect(pushed.receivedAt - sent).toBeLessThan(1000);
      expect(pushed.data).toMatchObject({ customerId: acme.id, offlineCount: 3, onlineCount: 1, online: [] });
      const row = await own.next(
        (e) => e.event === 'live-events' && (e.data as { row: { offlineCount: number } | null }).row?.offlineCount === 3,
      );
      expect(row.data).toMatchObject({
        row: { customerName: 'Acme Logistics', offlineCount: 3, offlineSince: ago(90 * MIN).toISOString() },
      });
      await platform.next(isAcmeChange, 1000);
      // The other tenant's own change arrives there, proving its stream works, and the first did not.
      await report(foreign, 'door-9', 1, ago(MIN));
      await report(foreign, 'door-9', 0, t.clock.now());
      await other.next((e) => e.event === 'devices', 1000);
      expect(other.events.filter((e) => (e.data as { customerId?: number }).customerId === acme.id)).toEqual([]);
      expect(own.events.filter((e) => (e.data as { customerId?: number }).customerId === foreign.id)).toEqual([]);
    } finally {
      [own, other, platform].forEach((s) => s.close());
    }
  });

  it('forgets a client when it disconnects', async () => {
    const hub = liveHubs.get(t.deps)!;
    // every stream of the earlier tests was closed: the registry empties
    await expect.poll(() => hub.size, { timeout: 1000 }).toBe(0);
    const before = hub.size;
    const sse = await openSse(streamUrl(await ticketFor(cast.admin.token)));
    await sse.next((e) => e.event === 'snapshot');
    expect(hub.size).toBe(before + 1);
    sse.close();
    await expect.poll(() => hub.size, { timeout: 1000 }).toBe(before);
  });

  it('sends an alert event when an alert opens, to its tenant only', async () => {
    const own = await openSse(streamUrl(await ticketFor(cast.pm.token)));
    const other = await openSse(streamUrl(await ticketFor(cast.otherAdmin.token)));
    try {
      await Promise.all([own, other].map((s) => s.next((e) => e.event === 'snapshot')));
      await t.deps.bus.publish(TOPICS.alertOpened, {
        tenantId: cast.tenant.id,
        alertId: 7,
        portalId: acme.id,
        customerName: 'Acme Logistics',
        alertType: 0,
        offlineCount: 3,
      });
      const alert = await own.next((e) => e.event === 'alert', 1000);
      expect(alert.data).toEqual({ alertId: 7, customerId: acme.id, customerName: 'Acme Logistics', alertType: 0, offlineCount: 3 });
      await new Promise((r) => setTimeout(r, 100));
      expect(other.events.some((e) => e.event === 'alert')).toBe(false);
    } finally {
      own.close();
      other.close();
    }
  });
});

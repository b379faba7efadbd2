import net from 'node:net';
import { LIVE_EVENTS_STREAM_PATH, liveEventsEndpoints } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '../../events/topics.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { createCast, createDevices, createPortal, type TestPortal } from '../../../test/factories.ts';
import { openSse } from './sse-client.ts';
import { sseFrame, sseHead } from './sse-wire.ts';

/**
 * The stream written straight to the socket (live-stream.ts, sse-wire.ts): its HTTP framing,
 * coalesced changes, and a clean end at shutdown. Backpressure: live-hub.test.ts.
 */

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let acme: TestPortal;
let bravo: TestPortal;
let port = 0;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  cast = await createCast(t);
  acme = await createPortal(t, cast.tenant, 'Acme Logistics');
  bravo = await createPortal(t, cast.tenant, 'Bravo Storage');
  await createDevices(t, acme, [{ status: 0 }, { status: 1 }]);
  await createDevices(t, bravo, [{ status: 1 }]);
});
let closed = false;
afterAll(() => (closed ? undefined : t?.close()));

async function ticketFor(token: string): Promise<string> {
  const res = await t.call(liveEventsEndpoints.ticket, { token, body: {} });
  expect(res.status).toBe(200);
  return res.body.data.ticket;
}
const pathFor = (ticket: string) => `${LIVE_EVENTS_STREAM_PATH}?ticket=${encodeURIComponent(ticket)}`;

/** A bare socket sending one GET; collects every byte it reads (unless paused by the test). */
function rawStream(path: string, httpVersion = '1.1') {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/${httpVersion}\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
  const text = () => Buffer.concat(chunks).toString('utf8');
  const until = async (predicate: (text: string) => boolean, timeoutMs = 2000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(text())) {
      if (Date.now() > deadline) throw new Error(`stream never matched; got: ${text().slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { socket, text, until, closed };
}

describe('SSE wire format', () => {
  it('frames a message once as an HTTP chunk, sized in bytes (not characters)', () => {
    const frame = sseFrame('event: x\ndata: "Café ☕"\n\n');
    const body = Buffer.from('event: x\ndata: "Café ☕"\n\n');
    expect(frame.chunked.toString('latin1').startsWith(`${body.length.toString(16)}\r\n`)).toBe(true);
    expect(frame.chunked.subarray(-2).toString()).toBe('\r\n');
    expect(frame.plain.equals(body)).toBe(true);
  });

  it('refuses a header that could split the response head', () => {
    expect(() => sseHead('1.1', { 'x-evil': 'a\r\nset-cookie: b' }, true)).toThrow(/unsafe/);
  });

  it('answers HTTP/1.1 chunked with keep-alive, and HTTP/1.0 unframed until close', async () => {
    const v11 = rawStream(pathFor(await ticketFor(cast.admin.token)));
    const v10 = rawStream(pathFor(await ticketFor(cast.admin.token)), '1.0');
    try {
      await v11.until((s) => s.includes('event: snapshot'));
      await v10.until((s) => s.includes('event: snapshot'));
      const [head11, body11] = v11.text().split('\r\n\r\n', 2) as [string, string];
      expect(head11).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(head11).toMatch(/\r\ntransfer-encoding: chunked(\r\n|$)/i);
      expect(head11).toMatch(/\r\nx-request-id: \S+/i);
      expect(body11).toMatch(/^d\r\nretry: 3000\n\n\r\n/);
      const [head10, body10] = v10.text().split('\r\n\r\n', 2) as [string, string];
      expect(head10).toMatch(/^HTTP\/1\.0 200 OK\r\n/);
      expect(head10).not.toMatch(/transfer-encoding/i);
      expect(head10).toMatch(/\r\nconnection: close(\r\n|$)/i);
      expect(body10).toMatch(/^retry: 3000\n\nevent: snapshot\ndata: \{/);
    } finally {
      v11.socket.destroy();
      v10.socket.destroy();
    }
  });
});

describe('live hub', () => {
  it('merges a burst of changes into one write per client, each portal with its own devices event', async () => {
    const sse = await openSse(`http://127.0.0.1:${port}${pathFor(await ticketFor(cast.pm.token))}`);
    try {
      await sse.next((e) => e.event === 'snapshot');
      const at = t.clock.now().toISOString();
      // Published back to back: the hub queues both before its first query finishes.
      await Promise.all([
        t.deps.bus.publish(TOPICS.deviceStatus, { tenantId: cast.tenant.id, portalId: acme.id, offline: [1001], online: [], at }),
        t.deps.bus.publish(TOPICS.deviceStatus, { tenantId: cast.tenant.id, portalId: bravo.id, offline: [], online: [1002], at }),
      ]);
      const a = await sse.next((e) => e.event === 'devices' && (e.data as { customerId: number }).customerId === acme.id);
      const b = await sse.next((e) => e.event === 'devices' && (e.data as { customerId: number }).customerId === bravo.id);
      expect(a.data).toEqual({ customerId: acme.id, offlineCount: 1, onlineCount: 1, offline: [1001], online: [], at });
      expect(b.data).toEqual({ customerId: bravo.id, offlineCount: 0, onlineCount: 1, offline: [], online: [1002], at });
      await sse.next((e) => e.event === 'live-events' && (e.data as { customerId: number }).customerId === acme.id);
      await sse.next((e) => e.event === 'live-events' && (e.data as { customerId: number }).customerId === bravo.id);
      // On PostgreSQL the two NOTIFYs travel on different pooled connections: either may come first.
      const liveEvents = sse.events.filter((e) => e.event === 'live-events').map((e) => e.data as { customerId: number });
      expect(liveEvents.sort((x, y) => x.customerId - y.customerId)).toEqual([
        { customerId: acme.id, row: expect.objectContaining({ customerId: acme.id, offlineCount: 1 }) as unknown },
        { customerId: bravo.id, row: null },
      ]);
    } finally {
      sse.close();
    }
  });

  // Last: it closes the app.
  it('ends every stream with the last chunk when the server closes', async () => {
    const stream = rawStream(pathFor(await ticketFor(cast.admin.token)));
    await stream.until((s) => s.includes('event: snapshot'));
    const started = Date.now();
    closed = true;
    const closing = t.close();
    await stream.closed;
    expect(Date.now() - started).toBeLessThan(1000);
    await closing;
    expect(stream.text().endsWith('\r\n0\r\n\r\n')).toBe(true);
  });
});

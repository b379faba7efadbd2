import net from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps.ts';
import type { EventBus, Handler } from '../../events/bus.ts';
import { TOPICS } from '../../events/topics.ts';
import { LiveHub, MAX_BUFFERED_BYTES, type StreamClient } from './live-hub.ts';

/**
 * The hub over real loopback sockets and an in-memory bus (no database: alert events need no
 * query), so a client that stops reading can be driven past the kernel's buffers quickly.
 */

function memoryBus(): EventBus {
  const handlers = new Map<string, Set<Handler>>();
  return {
    start: async () => {},
    stop: async () => {},
    publish(topic, event) {
      handlers.get(topic)?.forEach((h) => h(event));
      return Promise.resolve();
    },
    publishAll(topic, events) {
      for (const event of events) handlers.get(topic)?.forEach((h) => h(event));
      return Promise.resolve();
    },
    subscribe(topic, handler) {
      if (!handlers.has(topic)) handlers.set(topic, new Set());
      handlers.get(topic)!.add(handler);
      return () => handlers.get(topic)!.delete(handler);
    },
  };
}

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(() => {
  sockets.splice(0).forEach((s) => s.destroy());
  servers.splice(0).forEach((s) => s.close());
});

/** A connected pair: `server` is what the hub writes to, `client` the browser's end. */
async function socketPair(): Promise<{ server: net.Socket; client: net.Socket }> {
  const listener = net.createServer();
  servers.push(listener);
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const accepted = new Promise<net.Socket>((r) => listener.once('connection', r));
  const client = net.connect((listener.address() as net.AddressInfo).port, '127.0.0.1');
  const server = await accepted;
  sockets.push(client, server);
  return { server, client };
}

describe('LiveHub backpressure', () => {
  it('disconnects a client that stops reading before its socket holds more than the cap, and keeps the reading ones', async () => {
    const bus = memoryBus();
    const hub = new LiveHub({ bus, log: pino({ level: 'silent' }) } as unknown as AppDeps);
    hub.start();
    const stalledPair = await socketPair();
    const readerPair = await socketPair();
    const stalled: StreamClient = { tenantId: 1, socket: stalledPair.server, chunked: true, pending: null };
    const reader: StreamClient = { tenantId: 1, socket: readerPair.server, chunked: true, pending: null };
    hub.add(stalled);
    hub.add(reader);
    stalledPair.server.once('close', () => hub.remove(stalled));
    const received: Buffer[] = [];
    readerPair.client.on('data', (b: Buffer) => received.push(b));
    const alertsReceived = () => Buffer.concat(received).toString().split('event: alert\n').length - 1;
    stalledPair.client.pause(); // the browser's end reads nothing: the kernel's buffers fill, then the server's socket

    const customerName = 'x'.repeat(16 * 1024);
    let sent = 0;
    let peak = 0;
    while (hub.dropped === 0 && sent < 5000) {
      await bus.publish(TOPICS.alertOpened, { tenantId: 1, alertId: sent, portalId: 5, customerName, alertType: 1, offlineCount: 1 });
      sent++;
      peak = Math.max(peak, stalledPair.server.writableLength);
      if (sent % 20 === 0) await new Promise((r) => setImmediate(r)); // lets the reader drain
    }
    expect(hub.dropped).toBe(1);
    expect(stalledPair.server.destroyed).toBe(true);
    // Memory stayed bounded: never more than the cap plus the one message that crossed it.
    expect(peak).toBeLessThanOrEqual(MAX_BUFFERED_BYTES + customerName.length + 200);
    await new Promise((r) => setImmediate(r));
    expect(hub.size).toBe(1);
    // The reading client was not dropped and gets everything.
    await expect.poll(alertsReceived, { timeout: 5000 }).toBe(sent);
    expect(readerPair.server.destroyed).toBe(false);
    hub.stop();
  });

  it('holds messages for a client until its snapshot is written, then sends them after it', async () => {
    const bus = memoryBus();
    const hub = new LiveHub({ bus, log: pino({ level: 'silent' }) } as unknown as AppDeps);
    hub.start();
    const pair = await socketPair();
    const client: StreamClient = { tenantId: 3, socket: pair.server, chunked: false, pending: [] };
    hub.add(client);
    let text = '';
    pair.client.on('data', (b: Buffer) => (text += b.toString()));
    await bus.publish(TOPICS.alertOpened, { tenantId: 3, alertId: 1, portalId: 5, customerName: 'A', alertType: 0, offlineCount: 1 });
    await bus.publish(TOPICS.alertOpened, { tenantId: 4, alertId: 2, portalId: 6, customerName: 'B', alertType: 0, offlineCount: 1 });
    await new Promise((r) => setTimeout(r, 20));
    expect(text).toBe('');
    hub.open(client, 'event: snapshot\ndata: {}\n\n');
    await expect.poll(() => text).toContain('"alertId":1');
    expect(text.indexOf('event: snapshot')).toBe(0);
    expect(text).not.toContain('"alertId":2'); // another tenant's
    hub.stop();
  });
});

import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../security/webhook-secret.ts';
import { createFleet, devicesReported, percentile, reportOf, runLoad, signWebhook, startFleetSimulator, stepFleet } from './index.ts';

const secret = newWebhookSecret();

/** A stand-in webhook receiver that verifies every message with the reference library. */
let server: Server;
let baseUrl: string;
const received: { path: string; ok: boolean; devices: number }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let ok = true;
      let devices = 0;
      try {
        const msg = new Webhook(secret).verify(body, req.headers as Record<string, string>) as { data: { devices: unknown[] } };
        devices = msg.data.devices.length;
      } catch {
        ok = false;
      }
      received.push({ path: req.url ?? '', ok, devices });
      res.writeHead(ok ? 202 : 401, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { accepted: devices } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('signWebhook', () => {
  it('produces messages the standardwebhooks library verifies, and a wrong secret does not', () => {
    const fleet = createFleet(3);
    const msg = signWebhook(secret, devicesReported(fleet.map((d) => reportOf(d, new Date('2026-11-22T06:00:00Z')))));
    const parsed = new Webhook(secret).verify(msg.body, msg.headers) as {
      type: string;
      data: { devices: { externalId: string; at: string }[] };
    };
    expect(parsed.type).toBe('devices.reported');
    expect(parsed.data.devices.map((d) => d.externalId)).toEqual(['sim-1', 'sim-2', 'sim-3']);
    expect(msg.headers['webhook-id']).toBe(msg.id);
    expect(() => new Webhook(newWebhookSecret()).verify(msg.body, msg.headers)).toThrow();
  });
});

describe('fleet', () => {
  it('covers all five types with realistic names and models', () => {
    const fleet = createFleet(10);
    expect(new Set(fleet.map((d) => d.deviceType))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(fleet[0]).toMatchObject({ name: 'Lobby Camera 1', deviceModel: 'Axis P3265-LVE', status: 1 });
  });

  it('sends heartbeats for online devices once their interval passed, and flaps with the given chance', () => {
    const fleet = createFleet(4, { now: 0 });
    expect(stepFleet(fleet, 1000, 1000, 60_000, () => 1)).toEqual([]);
    expect(stepFleet(fleet, 60_000, 59_000, 60_000, () => 1)).toHaveLength(4);
    // random() 0 takes every online device offline, back after 1 minute at least
    const changed = stepFleet(fleet, 61_000, 1000, 60_000, () => 0);
    expect(changed.map((d) => d.status)).toEqual([0, 0, 0, 0]);
    expect(stepFleet(fleet, 100_000, 39_000, 60_000, () => 1)).toEqual([]);
    expect(stepFleet(fleet, 121_000, 21_000, 60_000, () => 1).map((d) => d.status)).toEqual([1, 1, 1, 1]);
  });
});

describe('runLoad', () => {
  it('sends signed batches at the asked rate and reports the outcome', async () => {
    received.length = 0;
    const result = await runLoad({ url: baseUrl, portalId: 12, secret, devices: 50, rate: 100, batch: 10, durationSec: 1, concurrency: 4 });
    // 10 messages per second, plus the one sent at t=0: never more; fewer only when the machine is busy
    expect(result.sent).toBeGreaterThanOrEqual(5);
    expect(result.sent).toBeLessThanOrEqual(11);
    expect(result).toMatchObject({ accepted: result.sent, errors: 0, statuses: { 202: result.sent } });
    expect(result.devicesAccepted).toBe(result.sent * 10);
    expect(received.every((r) => r.ok && r.path === '/v0/webhooks/portals/12' && r.devices === 10)).toBe(true);
    expect(percentile(result, 99)).toBeGreaterThan(0);
  });

  it('counts rejected messages as errors', async () => {
    const result = await runLoad({
      url: baseUrl,
      portalId: 3,
      secret: newWebhookSecret(),
      devices: 5,
      rate: 5,
      batch: 5,
      durationSec: 0.3,
    });
    expect(result.errors).toBe(result.sent);
    expect(result.statuses[401]).toBe(result.sent);
  });
});

describe('startFleetSimulator', () => {
  it('reports every device on its first due tick through signed webhooks', async () => {
    received.length = 0;
    let now = 0;
    const sim = startFleetSimulator({
      url: baseUrl,
      portals: [{ portalId: 5, secret, fleet: createFleet(1500, { now: 0 }) }],
      heartbeatMs: 60_000,
      tickMs: 3_600_000,
      now: () => new Date(now),
    });
    now = 60_000;
    await sim.tick();
    await sim.stop();
    // 1500 due devices go in messages of at most 1000
    expect(received.map((r) => r.devices).sort((a, b) => b - a)).toEqual([1000, 500]);
    expect(received.every((r) => r.ok)).toBe(true);
    expect(sim.stats.accepted).toBe(2);
  });
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { queryRows, type Database } from '../../../src/db/client.ts';
import { alertDevices, alerts, devices } from '../../../src/db/schema/index.ts';
import { createDeps, type AppDeps } from '../../../src/deps.ts';
import { runTickOnce } from '../../../src/jobs/scheduler.ts';
import { notificationAnnounceJob } from '../../../src/jobs/notification-announce.job.ts';
import { FakeClock } from '../../../src/lib/clock.ts';
import { sendAllDue } from '../../../src/modules/notifications/index.ts';
import { inArray, and, eq } from 'drizzle-orm';
import { CapturingMailer, type TestApp } from '../../harness.ts';
import type { TestPortal } from '../../factories.ts';

/**
 * Notifications tests: alerts written straight into the alerts table (the rules that open them are
 * the alerts module's, tested there), local HTTP receivers, and a second app on the same database
 * (a restarted process).
 */

export const MINUTE_MS = 60_000;

/** An open Device Offline alert holding the given devices (now offline), created at the clock's time. */
export async function openAlert(
  t: Pick<TestApp, 'database' | 'clock'>,
  portal: TestPortal,
  deviceIds: number[],
  alertType = 0,
): Promise<number> {
  const now = t.clock.now();
  if (deviceIds.length) {
    await t.database.db
      .update(devices)
      .set({ status: 0, statusSince: now })
      .where(and(eq(devices.tenantId, portal.tenantId), inArray(devices.id, deviceIds)));
  }
  const [row] = await t.database.db
    .insert(alerts)
    .values({ tenantId: portal.tenantId, portalId: portal.id, alertType, offlineCount: deviceIds.length, createdAt: now, updatedAt: now })
    .returning({ id: alerts.id });
  if (deviceIds.length) {
    await t.database.db
      .insert(alertDevices)
      .values(deviceIds.map((deviceId) => ({ tenantId: portal.tenantId, alertId: row.id, deviceId })));
  }
  return row.id;
}

export async function resolveAlert(t: Pick<TestApp, 'database' | 'clock'>, tenantId: number, alertId: number): Promise<void> {
  await t.database.db
    .update(alerts)
    .set({ resolvedAt: t.clock.now() })
    .where(and(eq(alerts.tenantId, tenantId), eq(alerts.id, alertId)));
}

/** The announce job's tick at the clock's time (advance the clock 2 s between ticks), then every due send. */
export async function announceAndSend(t: Pick<TestApp, 'deps' | 'clock'>): Promise<void> {
  t.clock.advance(2_000);
  await runTickOnce(t.deps, notificationAnnounceJob);
  await sendAllDue(t.deps);
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status answered. */
  status: number;
}

/**
 * A local HTTP receiver: records every request and answers the scripted statuses in order, then
 * `thenStatus`. `hold` keeps answers back until released (a sender that stalls mid-send).
 */
export async function startReceiver(opts: { statuses?: number[]; thenStatus?: number } = {}) {
  const script = [...(opts.statuses ?? [])];
  const received: Received[] = [];
  let held: (() => void)[] = [];
  let toHold = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = script.length ? script.shift()! : (opts.thenStatus ?? 200);
      const answer = () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (toHold > 0) {
        toHold--;
        held.push(answer);
      } else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The next `n` requests wait for their answer until `release()`. */
    holdNext(n = 1) {
      toHold = n;
    },
    release() {
      const waiting = held;
      held = [];
      waiting.forEach((a) => a());
    },
    async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    /** Waits until `n` requests arrived, answered or held. */
    async waitForArrivals(n: number, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (received.length + held.length < n) {
        if (Date.now() > deadline) throw new Error('no request arrived');
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Verifies a received request as a receiver would (Standard Webhooks); throws when it does not verify. */
export function verifySignature(secret: string, r: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * Another server process on the same database (a restart): the real app built again on the test's
 * database, without emptying it, with its own fake clock set to `at` and the given environment.
 */
export async function secondApp(database: Database, at: Date, env: Record<string, string> = {}) {
  const config = loadConfig({
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    SEED: 'none',
    SIMULATOR: 'off',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/vigil-test-data',
    ...env,
  });
  const clock = new FakeClock(at);
  const mailer = new CapturingMailer();
  const deps: AppDeps = createDeps(config, database, pino({ level: 'silent' }), { clock, mailer, rateLimit: false, jobs: false });
  await deps.bus.start();
  const app = await buildApp(deps);
  await app.ready();
  return {
    deps,
    clock,
    mailer,
    database,
    async close() {
      await app.close();
      await deps.bus.stop();
    },
  };
}

export interface DeliveryState {
  id: number;
  event: string;
  status: string;
  attempts: number;
  alert_id: number | null;
  channel_id: number;
  next_attempt_at: Date | string;
}

/** Every delivery row, oldest first (as stored, below the API). */
export async function deliveryRows(database: Database): Promise<DeliveryState[]> {
  return queryRows<DeliveryState>(
    database.db,
    sql`select id, event, status, attempts, alert_id, channel_id, next_attempt_at from notification_deliveries order by id`,
  );
}

/** Acknowledges an alert as the alerts module stores it (acked_at, by whom). */
export async function ackAlert(t: Pick<TestApp, 'database' | 'clock'>, tenantId: number, alertId: number): Promise<void> {
  await t.database.db
    .update(alerts)
    .set({ ackedAt: t.clock.now(), ackedByName: 'Test Acker' })
    .where(and(eq(alerts.tenantId, tenantId), eq(alerts.id, alertId)));
}

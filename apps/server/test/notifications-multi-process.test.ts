import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../src/db/client.ts';
import { alerts, notificationChannels, portals, tenants } from '../src/db/schema/index.ts';
import { createSecretBox } from '../src/security/secret-box.ts';
import { newWebhookSecret } from '../src/security/webhook-secret.ts';
import { resetDatabase, sharedDatabase, usesPostgres, workerDatabaseUrl } from './database.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './kits/server-processes.ts';

/**
 * Two real server processes on one PostgreSQL database announce and send the same alerts: every
 * delivery reaches the receiver once (the announce tick is claimed by one process, announcing is
 * idempotent, and senders claim rows with FOR UPDATE SKIP LOCKED). PostgreSQL only.
 */
const APP_SECRET = 'notify-multi-process-secret-notify-multi-process';
const ALERTS = 60;

describe.runIf(usesPostgres())('notifications from two server processes on one PostgreSQL database', () => {
  let database: Database;
  let procs: ServerProcess[] = [];
  const byId = new Map<string, number>();
  let server: ReturnType<typeof createServer>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        byId.set(id, (byId.get(id) ?? 0) + 1);
        // A slow receiver keeps sends in flight while the other process looks for work.
        setTimeout(() => res.writeHead(200).end('ok'), 30);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

    database = await sharedDatabase();
    await resetDatabase(database);
    const db = database.db;
    const box = createSecretBox(APP_SECRET);
    const [tenant] = await db
      .insert(tenants)
      .values({ name: 'Twin Senders Co', subscriptionStatus: 'active' })
      .returning({ id: tenants.id });
    const hourAgo = new Date(Date.now() - 3_600_000);
    await db.insert(notificationChannels).values({
      tenantId: tenant.id,
      name: 'Twin hook',
      type: 'webhook',
      targetEnc: box.seal(JSON.stringify(url)),
      secretEnc: box.seal(newWebhookSecret()),
      events: ['alert.opened'],
      delayMinutes: 0,
      createdAt: hourAgo,
    });
    const [portal] = await db
      .insert(portals)
      .values({ tenantId: tenant.id, name: 'Twin Portal', apiKeyEnc: box.seal('key'), webhookSecretEnc: box.seal(newWebhookSecret()) })
      .returning({ id: portals.id });
    const created = new Date(Date.now() - 60_000);
    await db.insert(alerts).values(
      Array.from({ length: ALERTS }, () => ({
        tenantId: tenant.id,
        portalId: portal.id,
        alertType: 1,
        offlineCount: 1,
        createdAt: created,
      })),
    );
    const env = { DATABASE_URL: workerDatabaseUrl(), APP_SECRET, NOTIFY_ALLOW_PRIVATE_TARGETS: '1' };
    procs = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(procs.map(stopServerProcess));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }, 30_000);

  it('sends each delivery once', async () => {
    const deadline = Date.now() + 60_000;
    let sent = 0;
    while (Date.now() < deadline) {
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from notification_deliveries where status = 'sent'`,
      );
      sent = row.n;
      if (sent === ALERTS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(sent, procs.map((p) => p.output.join('')).join('\n')).toBe(ALERTS);
    const rows = await queryRows<{ id: number; attempts: number }>(
      database.db,
      sql`select id, attempts from notification_deliveries order by id`,
    );
    expect(rows).toHaveLength(ALERTS);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    expect(byId.size).toBe(ALERTS);
    expect([...byId.values()].every((n) => n === 1)).toBe(true);
  }, 90_000);
});

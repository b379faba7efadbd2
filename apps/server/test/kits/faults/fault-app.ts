import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase, queryRows, type Database } from '../../../src/db/client.ts';
import { migrateDatabase } from '../../../src/db/migrate.ts';
import { portals, tenants, users } from '../../../src/db/schema/index.ts';
import { systemClock } from '../../../src/lib/clock.ts';
import { createAccessTokens } from '../../../src/security/access-tokens.ts';
import { createSecretBox } from '../../../src/security/secret-box.ts';
import { newWebhookSecret } from '../../../src/security/webhook-secret.ts';
import { startServer, type RunningServer } from '../../../src/server.ts';
import { reported, signatureHeaders } from '../webhooks/webhook-test-kit.ts';

/**
 * Fault tests' world: a database of their own, a tenant with a portal and an Admin token, real
 * servers (startServer, listening on a free port) and a load of signed webhooks and reads whose
 * every answer is counted.
 */
export const FAULT_APP_SECRET = 'fault-tests-secret-fault-tests-secret-0042';

/** A fresh database named `name` on the server of `adminUrl` (dropped first if left over). */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`).catch(() => {});
  await admin.end();
}

export interface World {
  tenantId: number;
  portal: { id: number; webhookSecret: string };
  token: string;
}

/** Migrates the database at `url` and seeds one tenant, its Admin and one portal (direct, not through a server). */
export async function seedWorld(url: string): Promise<World> {
  const database = await openDatabase({ databaseUrl: url });
  try {
    await migrateDatabase(database);
    const db = database.db;
    const [tenant] = await db
      .insert(tenants)
      .values({ name: 'Fault Line Co', subscriptionStatus: 'active' })
      .returning({ id: tenants.id, name: tenants.name });
    const [user] = await db
      .insert(users)
      .values({ tenantId: tenant.id, email: 'faults@example.com', name: 'Fay Ult', roles: ['Admin'], emailVerifiedAt: new Date() })
      .returning({ id: users.id });
    const webhookSecret = newWebhookSecret();
    const box = createSecretBox(FAULT_APP_SECRET);
    const [row] = await db
      .insert(portals)
      .values({ tenantId: tenant.id, name: 'Fault Line Garage', apiKeyEnc: box.seal('key'), webhookSecretEnc: box.seal(webhookSecret) })
      .returning({ id: portals.id });
    const token = await createAccessTokens(FAULT_APP_SECRET, systemClock).sign({
      userId: user.id,
      userName: 'Fay Ult',
      tenantId: tenant.id,
      tenantName: tenant.name,
      roles: ['Admin'],
    });
    return { tenantId: tenant.id, portal: { id: row.id, webhookSecret }, token };
  } finally {
    await database.close();
  }
}

/** A real server (startServer) on `databaseUrl`, on a free port; no periodic jobs, no rate limit. */
export function startFaultServer(databaseUrl: string): Promise<RunningServer> {
  const config = loadConfig({
    PORT: '0',
    DATABASE_URL: databaseUrl,
    APP_SECRET: FAULT_APP_SECRET,
    SEED: 'none',
    SIMULATOR: 'off',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/vigil-fault-data',
  });
  return startServer(config, { jobs: false, rateLimit: false, log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
}

/** External ids of the devices stored for the portal, read directly (not through a server). */
export async function storedDeviceIds(database: Database, portalId: number): Promise<Set<string>> {
  const rows = await queryRows<{ external_id: string }>(database.db, sql`select external_id from devices where portal_id = ${portalId}`);
  return new Set(rows.map((r) => r.external_id));
}

export interface Tally {
  /** Answers by status, e.g. { 202: 310, 503: 12 }. */
  byStatus: Record<number, number>;
  /** 503 answers whose body was `{"error": {"code": "UNAVAILABLE"}}`. */
  unavailable: number;
  /** Requests that got no HTTP answer at all (connection refused or cut by the server). */
  noAnswer: number;
  /** Why each of those got none. */
  failures: string[];
  /** Non-2xx, non-503 answers with their bodies: must stay empty. */
  unexpected: string[];
  /** 503 answers of another shape (must stay empty). */
  other503: string[];
  /** External id of every device whose webhook was acknowledged 2xx. */
  acknowledged: Set<string>;
  /**
   * Every answer: when its request was sent and when its answer had been read (ms since epoch). Judge
   * what the server did during an outage by `sentAt`: under load the client may read an answer sent
   * before the outage well after it began.
   */
  answers: { sentAt: number; at: number; status: number; kind: 'webhook' | 'read' }[];
}

export const newTally = (): Tally => ({
  byStatus: {},
  unavailable: 0,
  noAnswer: 0,
  failures: [],
  unexpected: [],
  other503: [],
  acknowledged: new Set(),
  answers: [],
});

async function count(tally: Tally, kind: 'webhook' | 'read', request: Promise<Response>): Promise<number | undefined> {
  // The caller started the request just before this call.
  const sentAt = Date.now();
  let res: Response;
  try {
    res = await request;
  } catch (err) {
    tally.noAnswer++;
    tally.failures.push(`${kind}: ${(err as Error).message} ${String((err as { cause?: Error }).cause?.message ?? '')}`);
    return undefined;
  }
  const text = await res.text();
  tally.byStatus[res.status] = (tally.byStatus[res.status] ?? 0) + 1;
  tally.answers.push({ sentAt, at: Date.now(), status: res.status, kind });
  if (res.status === 503) {
    const body = JSON.parse(text) as { error?: { code?: string } };
    if (body.error?.code === 'UNAVAILABLE') tally.unavailable++;
    else tally.other503.push(text);
  } else if (res.status >= 300) tally.unexpected.push(`${kind} ${res.status} ${text}`);
  return res.status;
}

/** One signed webhook reporting a new device; its id is recorded when acknowledged. */
export async function sendOneWebhook(baseUrl: string, world: World, tally: Tally): Promise<void> {
  const externalId = `dev-${randomUUID()}`;
  const body = JSON.stringify(reported([{ externalId, status: 1, at: new Date() }]));
  const headers = {
    'content-type': 'application/json',
    ...signatureHeaders([world.portal.webhookSecret], `msg_${randomUUID()}`, new Date(), body),
  };
  const status = await count(
    tally,
    'webhook',
    fetch(`${baseUrl}/v0/webhooks/portals/${world.portal.id}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) }),
  );
  if (status !== undefined && status >= 200 && status < 300) tally.acknowledged.add(externalId);
}

export async function readOnce(baseUrl: string, world: World, tally: Tally): Promise<void> {
  await count(
    tally,
    'read',
    fetch(`${baseUrl}/v0/api/devices`, { headers: { authorization: `Bearer ${world.token}` }, signal: AbortSignal.timeout(15_000) }),
  );
}

/**
 * Load until `stop()`: `workers` loops per server, each alternating a webhook and a read.
 * `done` resolves once every loop has finished its last request.
 */
export function runLoad(baseUrls: string[], world: World, tally: Tally, workers = 4): { stop(): Promise<void> } {
  let running = true;
  const loops = baseUrls.flatMap((url) =>
    Array.from({ length: workers }, async () => {
      while (running) {
        await sendOneWebhook(url, world, tally);
        await readOnce(url, world, tally);
      }
    }),
  );
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Polls `check` every 50 ms until it holds; the time it took, or throws after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export async function readyz(baseUrl: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Resolves with the first event of `topic` that `server`'s bus delivers and `match` accepts. */
export function nextBusEvent(
  server: RunningServer,
  topic: string,
  match: (e: Record<string, unknown>) => boolean,
  timeoutMs = 5_000,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no ${topic} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = server.deps.bus.subscribe(topic, (e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(e);
    });
  });
}

export const fetchOk = async (url: string, token: string) =>
  (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status === 200;

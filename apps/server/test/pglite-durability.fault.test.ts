import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { portals, tenants } from '../src/db/schema/index.ts';
import { createSecretBox } from '../src/security/secret-box.ts';
import { newWebhookSecret } from '../src/security/webhook-secret.ts';
import { devicesReported, signWebhook, webhookUrlOf } from '../src/simulator/index.ts';
import { killHard, startKillableServer, stopGently, type KillableServer } from './kits/faults/killable-server.ts';

/**
 * kill -9 loses no acknowledged webhook on the embedded database (its data directory, as `npm start`
 * keeps it). A webhook is answered 2xx only once its transaction has committed; with PGlite on a
 * thread of its own (db/pglite-remote.ts) the answer still waits for the worker's COMMIT. Senders
 * keep several webhooks in flight, the process is killed right after a number of 2xx answers
 * (others half done), restarted on the same directory, killed again under load, and at the end
 * every device whose webhook got a 2xx is in the database with the status it reported.
 */
const APP_SECRET = 'durability-secret-durability-secret-2026-0';
const SENDERS = 8;

let dataDir: string | undefined;
let server: KillableServer | undefined;
afterEach(async () => {
  if (server) await killHard(server);
  server = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** A tenant and a portal written straight into the data directory, before any server opens it. */
async function preparedDataDir(): Promise<{ dir: string; portalId: number; secret: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-durability-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    await migrateDatabase(database);
    const [tenant] = await database.db
      .insert(tenants)
      .values({ name: 'Durable Co', subscriptionStatus: 'active' })
      .returning({ id: tenants.id });
    const secret = newWebhookSecret();
    const box = createSecretBox(APP_SECRET);
    const [portal] = await database.db
      .insert(portals)
      .values({ tenantId: tenant.id, name: 'Durable Garage', apiKeyEnc: box.seal('key'), webhookSecretEnc: box.seal(secret) })
      .returning({ id: portals.id });
    return { dir, portalId: portal.id, secret };
  } finally {
    await database.close();
  }
}

/**
 * Webhooks of one new device each from `SENDERS` senders, until `ackedBeforeKill` of them got a
 * 2xx: then the process is killed at once, while the others are still on their way. Answers the
 * devices acknowledged (with the status each reported) and counts of what else happened.
 */
async function sendUntilKilled(
  proc: KillableServer,
  portal: { id: number; secret: string },
  round: number,
  ackedBeforeKill: number,
): Promise<{ acknowledged: Map<string, number>; unanswered: number; other: number }> {
  const acknowledged = new Map<string, number>();
  let unanswered = 0;
  let other = 0;
  let killed = false;
  let n = 0;
  const sender = async () => {
    while (!killed) {
      const externalId = `r${round}-d${n++}`;
      const status = (n % 2) as 0 | 1;
      const message = signWebhook(
        portal.secret,
        devicesReported([{ externalId, name: externalId, deviceType: 0, deviceModel: 'Model D', status, at: new Date().toISOString() }]),
      );
      try {
        const res = await fetch(webhookUrlOf(proc.url, portal.id), { method: 'POST', headers: message.headers, body: message.body });
        const text = await res.text();
        if (res.status >= 200 && res.status < 300) {
          acknowledged.set(externalId, status);
          if (acknowledged.size >= ackedBeforeKill && !killed) {
            killed = true;
            // Synchronously, in the answer's own callback: the other senders' webhooks are mid-way.
            proc.child.kill('SIGKILL');
          }
        } else {
          // Not expected at all (the test fails on it): stop sending rather than loop on it.
          other++;
          if (other >= 10 && !killed) {
            killed = true;
            proc.child.kill('SIGKILL');
          }
          if (other === 1) console.info(`unexpected answer ${res.status}: ${text}`);
        }
      } catch {
        unanswered++;
      }
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  await proc.exited;
  return { acknowledged, unanswered, other };
}

describe('the embedded database after kill -9', () => {
  it('keeps every webhook it acknowledged, across two kills under load', async () => {
    const prepared = await preparedDataDir();
    dataDir = prepared.dir;
    const portal = { id: prepared.portalId, secret: prepared.secret };
    const acknowledged = new Map<string, number>();
    const rounds: string[] = [];
    for (const [round, ackedBeforeKill] of [
      [1, 150],
      [2, 400],
    ]) {
      server = await startKillableServer(prepared.dir, APP_SECRET);
      const result = await sendUntilKilled(server, portal, round, ackedBeforeKill);
      server = undefined;
      for (const [id, status] of result.acknowledged) acknowledged.set(id, status);
      rounds.push(
        `round ${round}: ${result.acknowledged.size} acknowledged, ${result.unanswered} cut by the kill, ${result.other} other answers`,
      );
      expect(result.other).toBe(0);
    }
    // Restarted on the same directory: PGlite recovers from its write-ahead log and serves again.
    server = await startKillableServer(prepared.dir, APP_SECRET);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    await stopGently(server);
    server = undefined;

    const database = await openDatabase({ dataDir: prepared.dir });
    try {
      const rows = await queryRows<{ external_id: string; status: number }>(
        database.db,
        sql`select external_id, status from devices where portal_id = ${portal.id}`,
      );
      const stored = new Map(rows.map((r) => [r.external_id, Number(r.status)]));
      const missing = [...acknowledged.keys()].filter((id) => !stored.has(id));
      const wrong = [...acknowledged].filter(([id, status]) => stored.has(id) && stored.get(id) !== status);
      console.info(`pglite durability: ${rounds.join('; ')}; stored ${stored.size} devices, ${missing.length} acknowledged missing`);
      expect(missing).toEqual([]);
      expect(wrong).toEqual([]);
      expect(acknowledged.size).toBeGreaterThanOrEqual(550);
    } finally {
      await database.close();
    }
  }, 240_000);
});

import { LIVE_EVENTS_STREAM_PATH, liveEventsEndpoints } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../src/db/client.ts';
import { devices, deviceStatusPeriods, portals, tenants, users } from '../src/db/schema/index.ts';
import { systemClock } from '../src/lib/clock.ts';
import { openSse, type SseConnection, type SseEvent } from '../src/modules/live-events/sse-client.ts';
import { createAccessTokens } from '../src/security/access-tokens.ts';
import { hashPassword } from '../src/security/passwords.ts';
import { createSecretBox } from '../src/security/secret-box.ts';
import { newWebhookSecret } from '../src/security/webhook-secret.ts';
import { devicesReported, signWebhook, webhookUrlOf } from '../src/simulator/index.ts';
import { resetDatabase, sharedDatabase, usesPostgres, workerDatabaseUrl } from './database.ts';
import { startServerProcess, stopServerProcess as stopProcess, type ServerProcess as Proc } from './kits/server-processes.ts';

/**
 * Two real server processes on one PostgreSQL database (docs/decisions.md 12):
 * a live event published by one reaches SSE clients of both (LISTEN/NOTIFY), and the offline
 * sweep runs once per tick however many processes run. PostgreSQL only: PGlite is one process
 * by nature, so the whole suite is conditional on VIGIL_TEST_DB=postgres (CI always runs it).
 */
const APP_SECRET = 'multi-process-secret-multi-process-secret-42';

const startProcess = () => startServerProcess({ DATABASE_URL: workerDatabaseUrl(), APP_SECRET });

describe.runIf(usesPostgres())('several server processes on one PostgreSQL database', () => {
  let database: Database;
  let procs: Proc[] = [];
  let token: string;
  let portal: { id: number; tenantId: number; secret: string };
  /** A Project Manager with a password (signs in) and one signed token of it. */
  let pm: { id: number; email: string; password: string; token: string };
  const streams: SseConnection[] = [];

  beforeAll(async () => {
    database = await sharedDatabase();
    await resetDatabase(database);
    const db = database.db;
    const [tenant] = await db
      .insert(tenants)
      .values({ name: 'Multi Process Co', subscriptionStatus: 'active' })
      .returning({ id: tenants.id, name: tenants.name });
    const [user] = await db
      .insert(users)
      .values({ tenantId: tenant.id, email: 'mp@example.com', name: 'Multi Proc', roles: ['Admin'], emailVerifiedAt: new Date() })
      .returning({ id: users.id });
    const secret = newWebhookSecret();
    const box = createSecretBox(APP_SECRET);
    const [row] = await db
      .insert(portals)
      .values({ tenantId: tenant.id, name: 'Twin Towers Garage', apiKeyEnc: box.seal('key'), webhookSecretEnc: box.seal(secret) })
      .returning({ id: portals.id });
    portal = { id: row.id, tenantId: tenant.id, secret };
    token = await createAccessTokens(APP_SECRET, systemClock).sign({
      userId: user.id,
      userName: 'Multi Proc',
      tenantId: tenant.id,
      tenantName: tenant.name,
      roles: ['Admin'],
    });
    const pmPassword = 'multi-process-pm-password';
    const [pmRow] = await db
      .insert(users)
      .values({
        tenantId: tenant.id,
        email: 'mp-pm@example.com',
        name: 'Multi Pm',
        roles: ['Project Manager'],
        passwordHash: await hashPassword(pmPassword),
        emailVerifiedAt: new Date(),
      })
      .returning({ id: users.id });
    const pmToken = await createAccessTokens(APP_SECRET, systemClock).sign({
      userId: pmRow.id,
      userName: 'Multi Pm',
      tenantId: tenant.id,
      tenantName: tenant.name,
      roles: ['Project Manager'],
    });
    pm = { id: pmRow.id, email: 'mp-pm@example.com', password: pmPassword, token: pmToken };
    procs = await Promise.all([startProcess(), startProcess()]);
  }, 90_000);

  afterAll(async () => {
    streams.forEach((s) => s.close());
    await Promise.all(procs.map(stopProcess));
  }, 30_000);

  async function connect(proc: Proc): Promise<SseConnection> {
    const res = await fetch(`${proc.url}${liveEventsEndpoints.ticket.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { ticket: string } };
    const sse = await openSse(`${proc.url}${LIVE_EVENTS_STREAM_PATH}?ticket=${encodeURIComponent(data.ticket)}`);
    streams.push(sse);
    expect(sse.status).toBe(200);
    await sse.next((e) => e.event === 'snapshot', 2000);
    return sse;
  }

  it('delivers a webhook received by one process to the SSE clients of both within 1 s', async () => {
    const [a, b] = await Promise.all(procs.map(connect));
    const at = new Date();
    const send = async (status: 0 | 1, when: Date) => {
      const msg = signWebhook(
        portal.secret,
        devicesReported([
          { externalId: 'gate-1', name: 'North Gate Camera', deviceType: 0, deviceModel: 'Axis P3265-LVE', status, at: when.toISOString() },
        ]),
      );
      const res = await fetch(webhookUrlOf(procs[0].url, portal.id), { method: 'POST', headers: msg.headers, body: msg.body });
      expect(res.status).toBe(202);
    };
    await send(1, new Date(at.getTime() - 60_000));
    const sent = Date.now();
    await send(0, at);
    const wentOffline = (e: SseEvent) => e.event === 'devices' && (e.data as { offlineCount: number }).offlineCount === 1;
    const [onA, onB] = await Promise.all([a.next(wentOffline, 1000), b.next(wentOffline, 1000)]);
    expect(onA.receivedAt - sent).toBeLessThan(1000);
    expect(onB.receivedAt - sent).toBeLessThan(1000);
    expect(onB.data).toMatchObject({ customerId: portal.id, offlineCount: 1, onlineCount: 0 });
  });

  /** Polls `proc` with `accessToken` until it answers 401 (up to 5 s); the milliseconds it took. */
  async function refusedOn(proc: Proc, accessToken: string, since: number): Promise<number> {
    const read = () => fetch(`${proc.url}/v0/api/customers/${portal.id}`, { headers: { authorization: `Bearer ${accessToken}` } });
    for (;;) {
      const res = await read();
      if (res.status === 401) return Date.now() - since;
      expect(res.status).toBe(200);
      if (Date.now() - since > 5_000) return Date.now() - since;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('refuses, on the other process within 5 s, the access token of a session logged out on one', async () => {
    const [a, b] = procs as [Proc, Proc];
    const login = await fetch(`${a.url}/v0/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: pm.email, password: pm.password }),
    });
    expect(login.status).toBe(200);
    const { data: session } = (await login.json()) as { data: { accessToken: string; refreshToken: string } };
    // Both processes know (and cache) the session as valid.
    for (const proc of procs)
      expect(
        (await fetch(`${proc.url}/v0/api/customers/${portal.id}`, { headers: { authorization: `Bearer ${session.accessToken}` } })).status,
      ).toBe(200);
    const loggedOut = await fetch(`${a.url}/v0/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken}` },
      body: JSON.stringify({ refreshToken: session.refreshToken }),
    });
    expect(loggedOut.status).toBe(200);
    const took = await refusedOn(b, session.accessToken, Date.now());
    expect(took).toBeLessThan(5_000);
    // The user's other tokens were not ended by that logout.
    expect((await fetch(`${b.url}/v0/api/customers/${portal.id}`, { headers: { authorization: `Bearer ${pm.token}` } })).status).toBe(200);
  });

  it('refuses, on the other process within 5 s, the access token of a user deactivated on one', async () => {
    const [a, b] = procs as [Proc, Proc];
    expect((await fetch(`${b.url}/v0/api/customers/${portal.id}`, { headers: { authorization: `Bearer ${pm.token}` } })).status).toBe(200);
    const removed = await fetch(`${a.url}/v0/api/users/${pm.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(removed.status).toBe(200);
    const took = await refusedOn(b, pm.token, Date.now());
    expect(took).toBeLessThan(5_000);
    const rotate = await fetch(`${b.url}/v0/api/customers/${portal.id}/webhook-secret`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pm.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(rotate.status).toBe(401);
  });

  it('runs the offline sweep once per tick while both processes run', async () => {
    // An online device silent for 20 minutes (heartbeat timeout 10): the next sweep tick takes it offline.
    const silentSince = new Date(Date.now() - 20 * 60_000);
    const [device] = await database.db
      .insert(devices)
      .values({
        tenantId: portal.tenantId,
        portalId: portal.id,
        externalId: 'silent-1',
        name: 'Silent Sensor',
        deviceType: 4,
        status: 1,
        lastReportAt: silentSince,
        lastOnline: silentSince,
        statusSince: silentSince,
        firstSeenAt: silentSince,
      })
      .returning({ id: devices.id });
    await database.db
      .insert(deviceStatusPeriods)
      .values({ tenantId: portal.tenantId, deviceId: device.id, portalId: portal.id, status: 1, startedAt: silentSince });
    const firstTick = await queryRows<{ n: string }>(database.db, sql`select count(*) as n from job_runs where job = 'offline-sweep'`);

    // Wait for the device to be swept, then for one more tick so several ticks ran with both processes up.
    const deadline = Date.now() + 75_000;
    let ticksAfter = 0;
    let offline = false;
    while (Date.now() < deadline && !(offline && ticksAfter >= Number(firstTick[0].n) + 2)) {
      await new Promise((r) => setTimeout(r, 1000));
      const [state] = await queryRows<{ status: number }>(database.db, sql`select status from devices where id = ${device.id}`);
      offline = state.status === 0;
      ticksAfter = Number(
        (await queryRows<{ n: string }>(database.db, sql`select count(*) as n from job_runs where job = 'offline-sweep'`))[0].n,
      );
    }
    expect(offline).toBe(true);
    expect(procs.every((p) => p.child.exitCode === null)).toBe(true);

    const perTick = await queryRows<{ tick: string; n: string; finished: boolean }>(
      database.db,
      sql`select tick, count(*) as n, bool_and(finished_at is not null) as finished from job_runs where job = 'offline-sweep' group by tick order by tick`,
    );
    expect(perTick.length).toBeGreaterThanOrEqual(2);
    expect(perTick.every((t) => Number(t.n) === 1)).toBe(true);
    const periods = await queryRows<{ status: number; started_at: Date; ended_at: Date | null }>(
      database.db,
      sql`select status, started_at, ended_at from device_status_periods where device_id = ${device.id} order by started_at`,
    );
    // One closed online period and one open offline period starting at last report + timeout: no duplicate.
    expect(periods.map((p) => [p.status, p.ended_at === null])).toEqual([
      [1, false],
      [0, true],
    ]);
    expect(new Date(periods[1].started_at).getTime()).toBe(silentSince.getTime() + 10 * 60_000);
  }, 90_000);
});

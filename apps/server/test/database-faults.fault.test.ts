import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/connection-errors.ts';
import { openDatabase, queryRows, type Database } from '../src/db/client.ts';
import type { RunningServer } from '../src/server.ts';
import { usesPostgres } from './database.ts';
import {
  createDatabase,
  dropDatabase,
  fetchOk,
  newTally,
  nextBusEvent,
  readOnce,
  readyz,
  runLoad,
  seedWorld,
  startFaultServer,
  storedDeviceIds,
  waitFor,
  type World,
} from './kits/faults/fault-app.ts';
import { startTcpProxy, throughProxy, type TcpProxy } from './kits/faults/tcp-proxy.ts';

/**
 * Database faults under traffic, on PostgreSQL through a TCP proxy that cuts every connection,
 * refuses new ones and restores (kits/faults/tcp-proxy.ts). The servers are real (startServer, HTTP
 * on a port): a crash would end this test process. On PGlite there is no connection to cut: the
 * database is inside the process, so these cases do not apply there.
 */
const pg = usesPostgres();
const dbName = `vigil_faults_${process.pid}`;

describe.skipIf(!pg)('database faults (PostgreSQL through a cutting proxy; skipped on PGlite: no connection to cut)', () => {
  let proxy: TcpProxy;
  let direct: Database;
  let world: World;
  let a: RunningServer;
  let b: RunningServer;
  const admin = process.env.TEST_DATABASE_URL!;
  let crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    const url = await createDatabase(admin, dbName);
    world = await seedWorld(url);
    direct = await openDatabase({ databaseUrl: url });
    const target = new URL(url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    [a, b] = await Promise.all([startFaultServer(throughProxy(url, proxy)), startFaultServer(throughProxy(url, proxy))]);
  }, 60_000);

  afterAll(async () => {
    proxy?.restore();
    await Promise.all([a?.stop(), b?.stop()]);
    await proxy?.close();
    await direct?.close();
    await dropDatabase(admin, dbName);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }, 60_000);

  /** Live events cross processes: published by `from`, received by `to`'s bus. */
  async function eventFlows(from: RunningServer, to: RunningServer): Promise<void> {
    const marker = `m-${Math.random()}`;
    const received = nextBusEvent(to, 'fault-test', (e) => e.marker === marker);
    await from.deps.bus.publish('fault-test', { marker });
    await received;
  }

  it('survives a cut while idle: the pool reconnects by itself and live events flow again', async () => {
    crashes = [];
    expect(await fetchOk(`${a.url}/v0/api/devices`, world.token)).toBe(true);
    proxy.cut();
    const tally = newTally();
    // At most the first statements on dead connections fail (503), none 500; then reads succeed.
    const recovered = await waitFor('a read after the cut', async () => {
      await readOnce(a.url, world, tally);
      return tally.byStatus[200] !== undefined;
    });
    expect(tally.unexpected).toEqual([]);
    expect(tally.noAnswer).toBe(0);
    const listening = await waitFor(
      'readyz 200 on both',
      async () => (await readyz(a.url)).status === 200 && (await readyz(b.url)).status === 200,
    );
    await eventFlows(a, b);
    await eventFlows(b, a);
    expect(crashes).toEqual([]);
    console.info(`idle cut: read back after ${recovered} ms, LISTEN back after ${listening} ms, answers ${JSON.stringify(tally.byStatus)}`);
  });

  it('fails a transaction cut in its middle with an unavailable error, and the next one succeeds', async () => {
    crashes = [];
    const failure = await a.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        proxy.cut();
        await new Promise((r) => setTimeout(r, 50));
        await tx.execute(sql`select 2`);
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failure).toBeDefined();
    expect(isDatabaseUnavailable(failure)).toBe(true);
    await waitFor('a transaction after the cut', () =>
      a.database.db
        .transaction(async (tx) => tx.execute(sql`select 1`))
        .then(
          () => true,
          () => false,
        ),
    );
    expect(crashes).toEqual([]);
  });

  it('reports the LISTEN session down on /readyz while it is away, then reconnects and listens again', async () => {
    crashes = [];
    proxy.refuse();
    await waitFor('readyz 503', async () => (await readyz(a.url)).status === 503);
    const down = await readyz(a.url);
    expect(down.body).toMatchObject({
      error: { code: 'UNAVAILABLE', status: 'unavailable', checks: { database: 'down', events: 'down' } },
    });
    await new Promise((r) => setTimeout(r, 1_000));
    const restored = Date.now();
    proxy.restore();
    const back = await waitFor('readyz 200', async () => (await readyz(a.url)).status === 200);
    expect((await readyz(a.url)).body).toMatchObject({ status: 'ok', database: 'postgres', checks: { database: 'ok', events: 'ok' } });
    await waitFor('readyz 200 on b', async () => (await readyz(b.url)).status === 200);
    await eventFlows(a, b);
    await eventFlows(b, a);
    expect(crashes).toEqual([]);
    console.info(`LISTEN outage: ready again ${back} ms after restore (${Date.now() - restored} ms with events checked)`);
  });

  it('re-listens when only the LISTEN sessions are killed (pg_terminate_backend), on both processes', async () => {
    crashes = [];
    const killed = await queryRows<{ pid: number }>(
      direct.db,
      sql`select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid() and pg_terminate_backend(pid)`,
    );
    expect(killed.length).toBe(2);
    const back = await waitFor('both LISTEN sessions back', async () => {
      const rows = await queryRows<{ n: number }>(
        direct.db,
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`,
      );
      return rows[0].n === 2 && (await readyz(a.url)).status === 200 && (await readyz(b.url)).status === 200;
    });
    await eventFlows(a, b);
    await eventFlows(b, a);
    expect(crashes).toEqual([]);
    console.info(`LISTEN sessions killed: both back and listening within ${back} ms`);
  });

  it('answers 503 UNAVAILABLE (never 500) during an outage under load, stores every acknowledged webhook, and recovers on both processes', async () => {
    crashes = [];
    const tally = newTally();
    const load = runLoad([a.url, b.url], world, tally, 3);
    await new Promise((r) => setTimeout(r, 1_000));
    const before = { ...tally.byStatus };
    const outageStart = Date.now();
    proxy.refuse();
    await new Promise((r) => setTimeout(r, 2_000));
    const outageEnd = Date.now();
    proxy.restore();
    const recovered = await waitFor('a 2xx answer after the restore', () =>
      tally.answers.some((x) => x.sentAt > outageEnd && x.status < 300),
    );
    await new Promise((r) => setTimeout(r, 1_500));
    await load.stop();

    // Sent after the cut (and answered before the restore): whatever was sent before may be read late under load.
    const during = tally.answers.filter((x) => x.sentAt > outageStart + 100 && x.at < outageEnd);
    const duringByStatus = during.reduce<Record<number, number>>((m, x) => ((m[x.status] = (m[x.status] ?? 0) + 1), m), {});
    const stored = await storedDeviceIds(direct, world.portal.id);
    const lost = [...tally.acknowledged].filter((id) => !stored.has(id));
    console.info(
      `load outage 2 s: before ${JSON.stringify(before)}; during ${JSON.stringify(duringByStatus)}; total ${JSON.stringify(tally.byStatus)}; ` +
        `503 UNAVAILABLE ${tally.unavailable}; first 2xx ${recovered} ms after restore; acknowledged ${tally.acknowledged.size}, stored of them ${tally.acknowledged.size - lost.length}`,
    );

    expect(tally.unexpected).toEqual([]);
    expect(tally.other503).toEqual([]);
    expect(tally.failures).toEqual([]);
    expect(tally.byStatus[500]).toBeUndefined();
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((x) => x.status === 503)).toBe(true);
    expect(tally.unavailable).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(tally.acknowledged.size).toBeGreaterThan(0);

    // After the restore: reads succeed and live events flow again both ways.
    await waitFor('readyz 200 on both', async () => (await readyz(a.url)).status === 200 && (await readyz(b.url)).status === 200);
    expect(await fetchOk(`${a.url}/v0/api/devices`, world.token)).toBe(true);
    expect(await fetchOk(`${b.url}/v0/api/devices`, world.token)).toBe(true);
    await eventFlows(a, b);
    await eventFlows(b, a);
    expect(crashes).toEqual([]);
  }, 40_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import type { RunningServer } from '../src/server.ts';
import {
  createDatabase,
  fetchOk,
  newTally,
  nextBusEvent,
  readyz,
  runLoad,
  seedWorld,
  startFaultServer,
  storedDeviceIds,
  waitFor,
  type World,
} from './kits/faults/fault-app.ts';
import { postgresBinDir, startThrowawayCluster, type ThrowawayCluster } from './kits/faults/throwaway-cluster.ts';

/**
 * A real PostgreSQL restart (pg_ctl restart -m fast) under load, on a cluster of this test's own
 * (kits/faults/throwaway-cluster.ts), never the machine's shared one. Runs wherever the server
 * binaries are installed, whatever VIGIL_TEST_DB says: the cluster is its own.
 */
const bin = postgresBinDir();
const missing = 'missing' in bin ? bin.missing : undefined;

describe.skipIf(missing !== undefined)(`a PostgreSQL restart under load${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let cluster: ThrowawayCluster;
  let direct: Database;
  let world: World;
  let servers: RunningServer[] = [];
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    cluster = await startThrowawayCluster((bin as { dir: string }).dir);
    const url = await createDatabase(cluster.url, 'vigil_restart');
    world = await seedWorld(url);
    direct = await openDatabase({ databaseUrl: url });
    servers = await Promise.all([startFaultServer(url), startFaultServer(url)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await direct?.close();
    await cluster?.destroy();
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }, 60_000);

  it('keeps both processes up, answers 503 UNAVAILABLE meanwhile, stores every acknowledged webhook and delivers live events again', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const tally = newTally();
    const load = runLoad([a.url, b.url], world, tally, 3);
    await new Promise((r) => setTimeout(r, 1_000));
    const restartAt = Date.now();
    await cluster.restart();
    const restartedAt = Date.now();
    const firstOk = await waitFor('a 2xx answer after the restart', () =>
      tally.answers.some((x) => x.sentAt > restartedAt && x.status < 300),
    );
    const readyA = await waitFor(
      'readyz 200 on both',
      async () => (await readyz(a.url)).status === 200 && (await readyz(b.url)).status === 200,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    await load.stop();

    const stored = await storedDeviceIds(direct, world.portal.id);
    const lost = [...tally.acknowledged].filter((id) => !stored.has(id));
    console.info(
      `pg_ctl restart took ${restartedAt - restartAt} ms; answers ${JSON.stringify(tally.byStatus)}; 503 UNAVAILABLE ${tally.unavailable}; ` +
        `first 2xx ${firstOk} ms and readyz 200 on both ${readyA} ms after it returned; acknowledged ${tally.acknowledged.size}, stored of them ${tally.acknowledged.size - lost.length}`,
    );
    expect(crashes).toEqual([]);
    expect(tally.failures).toEqual([]);
    expect(tally.unexpected).toEqual([]);
    expect(tally.other503).toEqual([]);
    expect(tally.byStatus[500]).toBeUndefined();
    expect(lost).toEqual([]);
    expect(tally.acknowledged.size).toBeGreaterThan(0);

    expect(await fetchOk(`${a.url}/v0/api/devices`, world.token)).toBe(true);
    expect(await fetchOk(`${b.url}/v0/api/devices`, world.token)).toBe(true);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const marker = `m-${Math.random()}`;
      const received = nextBusEvent(to, 'restart-test', (e) => e.marker === marker);
      await from.deps.bus.publish('restart-test', { marker });
      await received;
    }
  }, 60_000);
});

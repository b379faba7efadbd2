/**
 * Local ingestion measurement (not a test, not the bench harness): the real app in this process
 * (PGlite in memory, or PostgreSQL with VIGIL_TEST_DB=postgres TEST_DATABASE_URL=...), messages signed before the clock
 * starts, sent through `inject` by N concurrent senders. Prints wall-clock and CPU-normalized rates
 * (events per CPU-second of this one process: HTTP, verification, validation, PGlite), p50/p99 and
 * statements per message, so a change can be judged on a machine shared with other work.
 *
 *   npx tsx apps/server/test/tools/bench-local.ts [phase ...]   phases: b1 b100 b1000 hb1000
 * Env: B1_MESSAGES, B1_CONNECTIONS (senders of the one-device phase, 50), CREATE_DEVICES (devices per portal created first), BENCH_LOCAL_PROFILE=dir (a CPU profile per phase).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { maintainPglite } from '../../src/jobs/pglite-maintenance.job.ts';
import { createPortal, createTenant, type TestPortal } from '../factories.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { reported, signatureHeaders } from '../kits/webhooks/webhook-test-kit.ts';
import { minorFaults, threadCpu, threadCpuSince } from './thread-cpu.ts';

const PORTALS = 50;
const DEVICES_PER_PORTAL = 200;

interface Phase {
  name: string;
  batch: number;
  connections: number;
  messages: number;
  /** Every message flips its devices (a period closes and one opens), or only heartbeats. */
  flip: boolean;
}

const PHASES: Record<string, Phase> = {
  b1: {
    name: `batches of 1 @${process.env.B1_CONNECTIONS ?? 50}`,
    batch: 1,
    connections: Number(process.env.B1_CONNECTIONS ?? 50),
    messages: Number(process.env.B1_MESSAGES ?? 1000),
    flip: true,
  },
  b100: { name: 'batches of 100 @10', batch: 100, connections: 10, messages: 300, flip: true },
  b1000: { name: 'batches of 1000 @10', batch: 1000, connections: 10, messages: 40, flip: true },
  hb1000: { name: 'heartbeats 1000 @1', batch: 1000, connections: 1, messages: 20, flip: false },
};

interface Prepared {
  url: string;
  headers: Record<string, string>;
  body: string;
}

let seq = 0;
function prepare(t: TestApp, portals: TestPortal[], phase: Phase): Prepared[] {
  const base = t.clock.now().getTime() - 4 * 60_000;
  return Array.from({ length: phase.messages }, (_, k) => {
    const portal = portals[k % portals.length];
    const round = Math.floor(k / portals.length);
    seq++;
    const at = new Date(base + seq * 10);
    const count = Math.min(phase.batch, DEVICES_PER_PORTAL * 5);
    const first = phase.batch === 1 ? round % DEVICES_PER_PORTAL : 0;
    // Each visit of a device flips it (batch 1 walks the portal's first DEVICES_PER_PORTAL devices).
    const status = phase.flip ? (phase.batch === 1 ? Math.floor(round / DEVICES_PER_PORTAL) : round) % 2 : 1;
    const body = JSON.stringify(
      reported(
        Array.from({ length: count }, (_, i) => ({
          externalId: `dev-${first + i}`,
          deviceType: (first + i) % 5,
          status: status as 0 | 1,
          at,
        })),
      ),
    );
    const id = `msg_${seq}`;
    return {
      url: `/v0/webhooks/portals/${portal.id}`,
      headers: { 'content-type': 'application/json', ...signatureHeaders([portal.webhookSecret], id, t.clock.now(), body) },
      body,
    };
  });
}

async function run(t: TestApp, portals: TestPortal[], phase: Phase) {
  const messages = prepare(t, portals, phase);
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const cpu0 = process.cpuUsage();
  const threads0 = threadCpu();
  const faults0 = minorFaults();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: phase.connections }, async () => {
      while (next < messages.length) {
        const m = messages[next++];
        const s = performance.now();
        const res = await t.app.inject({ method: 'POST', url: m.url, headers: m.headers, payload: m.body });
        latencies.push(performance.now() - s);
        if (res.statusCode !== 202) failures++;
      }
    }),
  );
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const threads = threadCpuSince(threads0);
  const faults = minorFaults() - faults0;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(0);
  const events = messages.length * phase.batch;
  console.log(
    `${phase.name}: ${messages.length} msg, ${Math.round(messages.length / wallS)} msg/s wall, ${Math.round(events / wallS)} events/s wall, ` +
      `${Math.round(messages.length / cpuS)} msg/CPU-s, ${Math.round(events / cpuS)} events/CPU-s, p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, ` +
      `database thread ${((threads.database * 1000) / messages.length).toFixed(3)} ms/msg (main ${((threads.main * 1000) / messages.length).toFixed(3)}, other threads ${((threads.others * 1000) / messages.length).toFixed(3)}), ${(faults / messages.length).toFixed(1)} page faults/msg` +
      `${failures ? `, ${failures} FAILED` : ''} (load ${loadavg()[0].toFixed(1)})`,
  );
}

const t = await createTestApp();
t.clock.set(new Date());
const tenant = await createTenant(t);
const portals: TestPortal[] = [];
for (let i = 0; i < PORTALS; i++) portals.push(await createPortal(t, tenant));
// Inventory first: every portal's devices exist before anything is measured.
await run(t, portals, {
  name: 'create',
  batch: Number(process.env.CREATE_DEVICES ?? DEVICES_PER_PORTAL * 5),
  connections: 1,
  messages: PORTALS,
  flip: false,
});
// The server's maintenance job (PGlite has no autovacuum) would have analyzed the new inventory within a minute.
await maintainPglite(t.database);
// BENCH_LOCAL_PROFILE=dir: a CPU profile of each measured phase (not of start-up), for node --cpu-prof tooling.
const profileDir = process.env.BENCH_LOCAL_PROFILE;
const session = profileDir ? new Session() : undefined;
session?.connect();
for (const name of process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(PHASES)) {
  await session?.post('Profiler.enable');
  await session?.post('Profiler.start');
  await run(t, portals, PHASES[name]);
  const profile = await session?.post('Profiler.stop');
  if (profile) writeFileSync(`${profileDir}/${name}.cpuprofile`, JSON.stringify(profile.profile));
}
await t.close();
process.exit(0);

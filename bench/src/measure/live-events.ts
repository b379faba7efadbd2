/**
 * Live events over Server-Sent Events: N raw HTTP clients (90 % on the main tenant, 10 % on
 * another), each with its own single-use ticket. Each round posts a signed webhook that turns one
 * online device of a main-tenant portal offline and times, per main-tenant client, webhook send ->
 * `devices` event for that portal. Memory per client = the server's growth from the first fifth of
 * the clients to all of them, per client added, after a full GC: RSS and the JavaScript heap in use,
 * the larger of the two (the marginal cost: one-time growth, e.g. PGlite's WebAssembly memory on the
 * first snapshot queries, lands in the first fifth). Any event naming a
 * main-tenant portal at another tenant's client is a cross-tenant leak. Before the first count,
 * up to 1,000 clients connect and leave once (warmUp).
 * BENCH_SSE_CLIENTS=5000 (or 1000,5000) overrides the size's client counts.
 */
import type { BenchContext } from '../lib/context.ts';
import type { BenchServer } from '../lib/server.ts';
import { openSseClient, pool, type SseClient } from '../lib/sse.ts';
import { median, percentile, round } from '../lib/stats.ts';
import { reportsFor, signedReport } from '../lib/webhook.ts';

const KiB = 1024;

/**
 * The server's memory after a full garbage collection (through its inspector, lib/server-gc.ts): RSS
 * as the median of 5 samples over a second, and the JavaScript heap in use. Without the collection
 * the RSS depended on when V8 had last collected the garbage of the clients' ticket requests (same
 * build: 15.8 and 41.8 KB per client at S); after it, RSS can stay flat while the clients' live
 * objects fill pages the garbage left resident, which the heap in use shows. Where the collection
 * cannot run, RSS is sampled as it is and `heap` is undefined.
 */
async function steadyMemory(server: BenchServer): Promise<{ rss: number; heap?: number }> {
  let heap: number | undefined;
  try {
    heap = await server.collectGarbage();
  } catch (err) {
    console.log(`  (no garbage collection before the memory sample: ${err instanceof Error ? err.message : String(err)})`);
  }
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 200));
    samples.push(server.rss());
  }
  return { rss: median(samples), heap };
}

async function ticketFor(server: BenchServer, token: string): Promise<string> {
  const res = await fetch(`${server.url}/v0/api/live-events/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await res.json()) as { data?: { ticket: string } };
  if (!res.ok || !body.data) throw new Error(`ticket: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body.data.ticket;
}

async function postReport(server: BenchServer, msg: ReturnType<typeof signedReport>): Promise<void> {
  const res = await fetch(`${server.url}${msg.path}`, { method: 'POST', headers: msg.headers, body: msg.body });
  if (res.status !== 202 && res.status !== 200) throw new Error(`webhook answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

async function runWith(ctx: BenchContext, server: BenchServer, n: number, round_: number): Promise<void> {
  const main = ctx.main;
  const mainPortalIds = new Set(main.portals.map((p) => p.id));
  const otherCount = Math.max(1, Math.round(n / 10));
  const tenants = Array.from({ length: n }, (_, i) => (i < otherCount ? ctx.other : main));
  const tokens = new Map([
    [main.id, await ctx.sign(main)],
    [ctx.other.id, await ctx.sign(ctx.other)],
  ]);
  const clients: SseClient[] = [];
  let crossTenant = 0;
  try {
    // Ticket then connect, per client: a ticket lives 60 s, less than issuing 5,000 may take.
    const connect = (batch: typeof tenants) =>
      pool(batch, 50, async (tenant) => {
        const ticket = await ticketFor(server, tokens.get(tenant.id)!);
        clients.push(await openSseClient(`${server.url}/v0/api/live-events/stream?ticket=${encodeURIComponent(ticket)}`, tenant.id));
      });
    const first = Math.ceil(n / 5);
    await connect(tenants.slice(0, first));
    const before = await steadyMemory(server);
    await connect(tenants.slice(first));
    const after = await steadyMemory(server);
    // Judged on the larger growth of the two (RSS, or the JavaScript heap in use after a full GC).
    const rssPerClient = (after.rss - before.rss) / (n - first);
    const heapPerClient = before.heap !== undefined && after.heap !== undefined ? (after.heap - before.heap) / (n - first) : undefined;
    const perClient = Math.max(rssPerClient, heapPerClient ?? -Infinity);
    const mib = (bytes: number) => Math.round(bytes / KiB / KiB);
    const memoryDetail =
      `RSS ${mib(before.rss)} MiB at ${first} clients -> ${mib(after.rss)} MiB at ${n}, ${round(rssPerClient / KiB)} KB/client` +
      (heapPerClient === undefined
        ? ' (no GC before the samples)'
        : `; JS heap in use after a full GC ${mib(before.heap!)} -> ${mib(after.heap!)} MiB, ${round(heapPerClient / KiB)} KB/client; the larger judged`);

    for (const c of clients) {
      if (c.tenantId === main.id) continue;
      c.onMessage = (m) => {
        const id = (JSON.parse(m.data) as { customerId?: number }).customerId;
        if (m.event !== 'snapshot' && (id === undefined || mainPortalIds.has(id))) crossTenant++;
      };
    }
    const mainClients = clients.filter((c) => c.tenantId === main.id);
    const latencies: number[] = [];
    /** send -> 202 of each measured webhook: the latencies are counted from the send, so they include it. */
    const answered: number[] = [];
    let missing = 0;
    const rounds = ctx.size.name === 'tiny' ? 2 : 5;
    for (let k = 0; k < rounds; k++) {
      const portalIndex = (k + round_ * rounds) % main.portals.length;
      const portal = main.portals[portalIndex];
      const device = 2 + k + round_ * rounds;
      // The seeded id of dev-<device> on that portal: the measured event must name it as offline.
      const deviceId = main.firstDeviceId + portalIndex * main.devicesPerPortal + device - 1;
      // Make sure the device is online first (no measurement), so the measured report is a change.
      await postReport(server, signedReport(portal, reportsFor(portal.id, device, 1, 1)));
      await new Promise((r) => setTimeout(r, 300));
      const arrived = new Map<SseClient, number>();
      let t0 = 0;
      const all = new Promise<void>((resolve) => {
        for (const c of mainClients) {
          c.onMessage = (m) => {
            if (m.event !== 'devices' || arrived.has(c)) return;
            const e = JSON.parse(m.data) as { customerId?: number; offline?: number[] };
            if (e.customerId !== portal.id || !e.offline?.includes(deviceId)) return;
            arrived.set(c, m.at - t0);
            if (arrived.size === mainClients.length) resolve();
          };
        }
      });
      t0 = performance.now();
      await postReport(server, signedReport(portal, reportsFor(portal.id, device, 1, 0)));
      answered.push(performance.now() - t0);
      await Promise.race([all, new Promise((r) => setTimeout(r, 10_000))]);
      latencies.push(...arrived.values());
      missing += mainClients.length - arrived.size;
    }
    await new Promise((r) => setTimeout(r, 300));
    const p99 = percentile(latencies, 99);
    ctx.results.add({
      group: 'Live events (SSE)',
      name: `${n} clients: webhook -> browser`,
      value: p99,
      unit: 'ms p99',
      detail: `p50 ${round(percentile(latencies, 50))} ms, ${latencies.length} deliveries over ${rounds} webhooks, ${missing} missed; counted from the send, the 202 came after ${round(median(answered))} ms (median)`,
      target: n >= 5000 ? '<= 250 ms p99 at 5,000 clients' : undefined,
      met: n >= 5000 ? p99 <= 250 && missing === 0 : missing === 0 ? null : false,
    });
    ctx.results.add({
      group: 'Live events (SSE)',
      name: `${n} clients: server memory per client`,
      value: perClient / KiB,
      unit: 'KB/client',
      detail: memoryDetail,
      target: '<= 30 KB per client',
      met: perClient / KiB <= 30,
    });
    ctx.results.add({
      group: 'Live events (SSE)',
      name: `${n} clients: cross-tenant events at ${otherCount} other-tenant clients`,
      value: crossTenant,
      unit: 'events',
      target: '0 cross-tenant events',
      met: crossTenant === 0,
    });
  } finally {
    for (const c of clients) c.close();
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Opens and closes `n` clients once (tickets, streams, snapshots) before anything is measured: a
 * fresh server's heap and PGlite's WebAssembly memory grow on the first few hundred such
 * requests and keep that memory, which is not a cost per connected client.
 */
async function warmUp(ctx: BenchContext, server: BenchServer, n: number): Promise<void> {
  const token = await ctx.sign(ctx.main);
  const clients = await pool(Array.from({ length: n }), 50, async () =>
    openSseClient(`${server.url}/v0/api/live-events/stream?ticket=${encodeURIComponent(await ticketFor(server, token))}`, ctx.main.id),
  );
  for (const c of clients) c.close();
  await new Promise((r) => setTimeout(r, 1000));
}

export async function measureLiveEvents(ctx: BenchContext, server: BenchServer): Promise<void> {
  const counts = process.env.BENCH_SSE_CLIENTS ? process.env.BENCH_SSE_CLIENTS.split(',').map(Number) : ctx.size.sseClients;
  try {
    await warmUp(ctx, server, Math.min(1000, ...counts));
  } catch (err) {
    ctx.results.fail('live events warm-up', err);
  }
  for (const [i, n] of counts.entries()) {
    try {
      await runWith(ctx, server, n, i);
    } catch (err) {
      ctx.results.fail(`live events with ${n} clients`, err);
    }
  }
}

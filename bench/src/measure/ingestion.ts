/**
 * Ingestion through HTTP: signed Standard Webhooks messages (each request freshly signed with a
 * new webhook-id) to the main tenant's portals, round robin. Every message flips its devices'
 * status (the expensive case: a period closes and one opens per device): the bench knows each
 * device's status (read before the server starts, then as reported) and reports the other one.
 * Batches of 1 (at 50 connections), 100 and 1,000 devices (at 10 connections), after a 6-second
 * warm-up that is not measured; then batches of 100 again while 10 simulated browsers (a process of
 * their own) reload the Pulse page (all its calls in parallel, in a loop), after one page loaded
 * before (measureUnderPulse says why), between two runs of
 * batches of 100 alone that are its baseline. Each run also reports
 * events per CPU-second of the server process, a figure a shared machine distorts less than the rate.
 */
import type { AutocannonRequest } from 'autocannon';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../apps/server/src/db/client.ts';
import { getJson } from '../lib/auth.ts';
import type { BenchContext } from '../lib/context.ts';
import { runLoad, type LoadResult } from '../lib/load.ts';
import type { BenchServer } from '../lib/server.ts';
import { deviceExternalId, reportsFor, signedReport } from '../lib/webhook.ts';
import { PULSE_CALLS } from './dashboard.ts';
import { withServerCpu } from '../lib/server-cpu.ts';
import { databaseCounters, perEventDetail, type CountersReader, type PerEvent } from './ingestion-counters.ts';

/** Messages sent so far per batch size (per bench context): every run continues its walk over the portals. */
const sentSoFar = new WeakMap<BenchContext, Map<number, number>>();

/**
 * The status each device of the main tenant is in, by "portal id/external id": read from the database
 * before the server starts (recordDeviceStatuses), then kept as the messages report them. Every
 * device in a message reports the other status, so every event flips its device (the expensive
 * case: a period closes and one opens), whatever earlier runs and walks left; a device the
 * database does not hold yet is created online.
 */
const deviceStatuses = new WeakMap<BenchContext, Map<string, 0 | 1>>();

/** DB phase (before the server starts): the main tenant's device statuses, for the walks to flip. */
export async function recordDeviceStatuses(ctx: BenchContext, database: Database): Promise<void> {
  const result = (await database.db.execute(
    sql`select portal_id as "portalId", external_id as "externalId", status from devices where tenant_id = ${ctx.main.id}::int`,
  )) as { rows: { portalId: number; externalId: string; status: number }[] };
  deviceStatuses.set(ctx, new Map(result.rows.map((r) => [`${r.portalId}/${r.externalId}`, r.status === 1 ? 1 : 0])));
}

/** The status that flips the portal's n-th device, now recorded as its status. */
function flipOf(ctx: BenchContext, portalId: number, n: number): 0 | 1 {
  let statuses = deviceStatuses.get(ctx);
  if (!statuses) deviceStatuses.set(ctx, (statuses = new Map<string, 0 | 1>()));
  const key = `${portalId}/${deviceExternalId(n)}`;
  const known = statuses.get(key);
  const next = known === undefined ? 1 : known === 1 ? 0 : 1;
  statuses.set(key, next);
  return next;
}

function webhookLoad(
  ctx: BenchContext,
  server: BenchServer,
  batch: number,
  connections: number,
  allowNone = false,
  seconds = ctx.size.duration,
): Promise<LoadResult> {
  const portals = ctx.main.portals;
  const dpp = ctx.main.devicesPerPortal;
  let sent = sentSoFar.get(ctx);
  if (!sent) sentSoFar.set(ctx, (sent = new Map<number, number>()));
  const setupRequest = (req: AutocannonRequest): AutocannonRequest => {
    const k = sent.get(batch) ?? 0;
    sent.set(batch, k + 1);
    const portal = portals[k % portals.length];
    const round = Math.floor(k / portals.length);
    // Batch 1: walk the portal's devices; larger batches: devices 1..batch (past the seeded ones they are created).
    const first = batch === 1 ? 1 + (round % dpp) : 1;
    const msg = signedReport(
      portal,
      reportsFor(portal.id, first, batch, (n) => flipOf(ctx, portal.id, n)),
    );
    return { ...req, method: 'POST', path: msg.path, headers: msg.headers, body: msg.body };
  };
  return runLoad({
    url: server.url,
    connections,
    duration: seconds,
    amount: ctx.size.amount,
    maxConnections: ctx.size.maxConnections,
    setupRequest,
    allowNone,
  });
}

/**
 * Waits until the server has applied everything sent so far: autocannon stops counting at the end
 * of its run, but the messages still in flight (a run of 1,000-device batches leaves seconds of
 * them) are still applied; without this the next run's first messages would queue behind them.
 * One message to a portal answers only after the groups queued before it committed.
 */
interface BrowserCounts {
  reloads: number;
  errors: number;
  /** Each Pulse call's median and slowest answer during the run (ms). */
  calls: Record<string, { p50: number; max: number }>;
}

const BROWSERS_SCRIPT = fileURLToPath(new URL('./ingestion-pulse-browsers.ts', import.meta.url));

/**
 * The Pulse browsers in a child process (ingestion-pulse-browsers.ts says why). It inherits this
 * process's CPU (the load generator's), so the server's CPU stays the server's.
 */
function startPulseBrowsers(url: string, token: string, count: number): { start(): void; stop(): Promise<BrowserCounts> } {
  const child = spawn(process.execPath, ['--import', 'tsx', BROWSERS_SCRIPT, url, token, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    start: () => child.stdin.write('start\n'),
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the Pulse browsers exited with ${code}`);
      return JSON.parse(output.trim().split('\n').at(-1)!) as BrowserCounts;
    },
  };
}

async function drain(ctx: BenchContext, server: BenchServer): Promise<void> {
  const portal = ctx.main.portals[0];
  const msg = signedReport(
    portal,
    reportsFor(portal.id, 1, 1, (n) => flipOf(ctx, portal.id, n)),
  );
  const res = await fetch(`${server.url}${msg.path}`, {
    method: 'POST',
    headers: msg.headers,
    body: msg.body,
    signal: AbortSignal.timeout(120_000),
  });
  if (res.status >= 300) throw new Error(`drain: webhook answered ${res.status}`);
}

const WARM_UP_SECONDS = 6;

/** Events sent so far in batches of `batch` (every message of the walk, answered or still in flight). */
function eventsSent(ctx: BenchContext, batch: number): number {
  return (sentSoFar.get(ctx)?.get(batch) ?? 0) * batch;
}

async function perEventDuring<T>(
  ctx: BenchContext,
  server: BenchServer,
  batch: number,
  counters: CountersReader,
  run: () => Promise<T>,
): Promise<{ result: T; perEvent?: PerEvent }> {
  const before = counters ? { read: await counters.read(), sent: eventsSent(ctx, batch) } : undefined;
  const result = await run();
  if (!counters || !before) return { result };
  await drain(ctx, server);
  const sent = eventsSent(ctx, batch) - before.sent;
  if (sent <= 0) return { result };
  // The drain's own one-device message opens one period too: negligible against a run.
  const after = await counters.read();
  // The statuses as the database holds them now: a message the run's end cut off (counted as sent,
  // never applied) must not turn the next run's events for its devices into no-ops.
  await counters.resyncStatuses();
  const per = (key: 'opened' | 'walBytes') => (after[key] - before.read[key]) / sent;
  const closedAgeSeconds = await counters.closedAge(before.read.at, after.at);
  return { result, perEvent: { flips: per('opened'), walBytes: per('walBytes'), messages: sent / batch, closedAgeSeconds } };
}

/** Before each measured run: what earlier runs sent is applied, and (PostgreSQL, autovacuum off) the tables vacuumed. */
async function readyForRun(ctx: BenchContext, server: BenchServer, counters: CountersReader): Promise<void> {
  await drain(ctx, server);
  await counters?.standInForAutovacuum();
}

export async function measureIngestion(ctx: BenchContext, server: BenchServer): Promise<void> {
  const connectionsOf: Record<number, number> = { 1: 50, 100: 10, 1000: 10 };
  // BENCH_INGEST_BATCHES=1,1,1: only these runs, in this order (A/B runs of one batch size); the
  // under-Pulse run needs a batches-of-100 run for its baseline.
  const batches = process.env.BENCH_INGEST_BATCHES?.split(',').map(Number) ?? [1, 100, 1000];
  const unknown = batches.filter((b) => !connectionsOf[b]);
  if (unknown.length) throw new Error(`BENCH_INGEST_BATCHES: batch sizes are 1, 100 and 1000 (not ${unknown.join(', ')})`);
  const runs = batches.map((batch) => ({ batch, connections: connectionsOf[batch] }));
  // Warm-up, not measured: the server's first job ticks (5 s after its start), JIT and prepared
  // statements are start-up work; with --only ingestion they fell into the first run.
  if (!ctx.size.amount)
    await webhookLoad(ctx, server, 1, 50, true, WARM_UP_SECONDS).catch((err: unknown) => ctx.results.fail('ingestion warm-up', err));
  const counters = await databaseCounters(ctx, recordDeviceStatuses);
  try {
    await measureRuns(ctx, server, runs, counters);
    if (batches.includes(100)) await measureUnderPulse(ctx, server, counters);
  } finally {
    await counters?.close();
  }
}

async function measureRuns(
  ctx: BenchContext,
  server: BenchServer,
  runs: { batch: number; connections: number }[],
  counters: CountersReader,
): Promise<void> {
  const rowLoop = ctx.shared.rowLoopEventsPerSec as number | undefined;
  const setBased = ctx.shared.setBasedEventsPerSec as number | undefined;
  const pg = ctx.kind === 'postgres';
  for (const { batch, connections } of runs) {
    try {
      await readyForRun(ctx, server, counters);
      const { result: r, perEvent } = await perEventDuring(ctx, server, batch, counters, () =>
        withServerCpu(server, () => webhookLoad(ctx, server, batch, connections)),
      );
      const events = r.reqPerSec * batch;
      let target: string | undefined;
      let met: boolean | null = null;
      if (batch === 1 && !pg) {
        target = '>= 2,000 msg/s, p99 <= 100 ms (PGlite)';
        met = r.reqPerSec >= 2000 && r.p99 <= 100;
      } else if (batch === 100) {
        target = pg ? '>= 20,000 events/s (PostgreSQL)' : '>= 5,000 events/s and >= 2x row loop (PGlite)';
        met = pg ? events >= 20_000 : events >= 5000 && rowLoop !== undefined && events >= 2 * rowLoop;
        ctx.shared.batch100EventsPerSec = events;
      }
      ctx.results.add({
        group: 'Ingestion (HTTP webhooks)',
        name: `batches of ${batch} @${Math.min(connections, ctx.size.maxConnections ?? connections)} conn`,
        value: events,
        unit: 'events/s',
        detail:
          `${Math.round(r.reqPerSec)} msg/s, p50 ${r.p50} ms, p99 ${r.p99} ms` +
          (r.perServerCpuSecond
            ? `, ${Math.round(r.perServerCpuSecond * batch)} events per server CPU-second${pg ? ' (database not counted)' : ''}`
            : '') +
          perEventDetail(perEvent, r.ok) +
          (r.non2xx ? `, ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}` : ''),
        ...(rowLoop && { baseline: { name: 'row loop', value: rowLoop, unit: 'events/s' }, ratio: events / rowLoop }),
        note: setBased ? `set-based statement baseline: ${Math.round(setBased)} events/s` : undefined,
        target,
        met: r.non2xx > 0 ? false : met,
      });
    } catch (err) {
      ctx.results.fail(`ingestion batch ${batch}`, err);
    }
  }
}

/**
 * The run under reloads and its two baselines last three times the size's duration (15 s at S). In 5 s
 * each browser completed one or two reloads, and the ratio followed that count: ten runs of the same
 * code on one seed read 0.75-0.94x (docs/performance.md "Known limits").
 */
const UNDER_PULSE_DURATIONS = 3;

/**
 * Batches of 100 under Pulse reloads, against batches of 100 alone measured right before and right
 * after it (their mean is the baseline): the same data set and server state on both sides. Until the
 * tenth session the baseline was the earlier batches-of-100 run, measured before the batches of 1,000
 * had added their dead rows and periods (PGlite has no autovacuum; its maintenance job runs when it
 * runs), so the ratio also held the drift between the two moments. Both figures are reported.
 */
async function measureUnderPulse(ctx: BenchContext, server: BenchServer, counters: CountersReader): Promise<void> {
  const earlier = ctx.shared.batch100EventsPerSec as number | undefined;
  const seconds = ctx.size.duration * UNDER_PULSE_DURATIONS;
  try {
    const alone = async () => {
      await readyForRun(ctx, server, counters);
      // Through perEventDuring: on PostgreSQL it drains and reads the statuses back, so no message cut off here turns a later event into a no-op.
      const { result } = await perEventDuring(ctx, server, 100, counters, () => webhookLoad(ctx, server, 100, 10, true, seconds));
      return result.reqPerSec * 100;
    };
    const before = await alone();
    const token = await ctx.sign(ctx.main);
    // A console watched before the run: one Pulse page first, so that the run measures reloads as they
    // go on (the marks of the hour and the trend's base kept, docs/uptime-rollup.md), not a new
    // process's first page, whose one walk of the hour since the rollup would fill most of the run.
    const firstPage = performance.now();
    await Promise.all(PULSE_CALLS.map(([, path]) => getJson(`${server.url}${path}`, token)));
    if (process.env.BENCH_DEBUG) console.log(`  Pulse page before the run (no ingestion): ${Math.round(performance.now() - firstPage)} ms`);
    await readyForRun(ctx, server, counters);
    const browsers = startPulseBrowsers(server.url, token, 10);
    let r;
    let perEvent: PerEvent | undefined;
    let counted: BrowserCounts;
    try {
      // The browsers first fill the server's queues, as they would have when ingestion runs into them.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      browsers.start();
      ({ result: r, perEvent } = await perEventDuring(ctx, server, 100, counters, () => webhookLoad(ctx, server, 100, 10, true, seconds)));
    } finally {
      // Always: browsers left reloading would load every later measurement.
      counted = await browsers.stop();
    }
    const after = await alone();
    const baseline = (before + after) / 2;
    const { reloads, errors: browserErrors } = counted;
    if (process.env.BENCH_DEBUG)
      console.log(
        `  Pulse calls under ingestion (p50 / slowest, ms): ${Object.entries(counted.calls)
          .map(([name, t]) => `${name} ${t.p50} / ${t.max}`)
          .join('; ')}`,
      );
    const events = r.reqPerSec * 100;
    ctx.results.add({
      group: 'Ingestion (HTTP webhooks)',
      name: 'batches of 100 while 10 browsers reload Pulse',
      value: events,
      unit: 'events/s',
      detail:
        `${reloads} page reloads (${PULSE_CALLS.length} calls each) during the run (${browserErrors} failed), ${r.ok} messages completed, p99 ${r.p99} ms${perEventDetail(perEvent, r.ok)}; ` +
        `batches of 100 alone right before ${Math.round(before)} and right after ${Math.round(after)} events/s` +
        (earlier ? `; against the earlier batches-of-100 run (${Math.round(earlier)}): ${(events / earlier).toFixed(2)}x` : ''),
      baseline: { name: 'batches of 100 alone (mean of the runs right before and after)', value: baseline, unit: 'events/s' },
      ratio: events / baseline,
      target: '>= 0.8x alone',
      met: events >= 0.8 * baseline,
    });
  } catch (err) {
    ctx.results.fail('ingestion while Pulse reloads', err);
  }
}

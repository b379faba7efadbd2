/**
 * Ingestion through HTTP: signed Standard Webhooks messages (each request freshly signed with a
 * new webhook-id) to the main tenant's portals, round robin. Every message flips its devices'
 * status (the expensive case: a period closes and one opens per device).
 * Batches of 1 (at 50 connections), 100 and 1,000 devices (at 10 connections); then batches of
 * 100 again while 10 simulated browsers reload the Pulse page (all its calls in parallel, in a loop).
 */
import type { AutocannonRequest } from 'autocannon';
import { getJson } from '../lib/auth.ts';
import type { BenchContext } from '../lib/context.ts';
import { runLoad, type LoadResult } from '../lib/load.ts';
import type { BenchServer } from '../lib/server.ts';
import { reportsFor, signedReport } from '../lib/webhook.ts';
import { PULSE_CALLS } from './dashboard.ts';

function webhookLoad(ctx: BenchContext, server: BenchServer, batch: number, connections: number, allowNone = false): Promise<LoadResult> {
  const portals = ctx.main.portals;
  const dpp = ctx.main.devicesPerPortal;
  let n = 0;
  const setupRequest = (req: AutocannonRequest): AutocannonRequest => {
    const k = n++;
    const portal = portals[k % portals.length]!;
    const round = Math.floor(k / portals.length);
    // Batch 1: walk the portal's devices; larger batches: devices 1..batch (past the seeded ones they are created).
    const first = batch === 1 ? 1 + (round % dpp) : 1;
    const status = (batch === 1 ? Math.floor(round / dpp) : round) % 2 === 0 ? 0 : 1;
    const msg = signedReport(portal, reportsFor(first, batch, status));
    return { ...req, method: 'POST', path: msg.path, headers: msg.headers, body: msg.body };
  };
  return runLoad({
    url: server.url,
    connections,
    duration: ctx.size.duration,
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
async function drain(ctx: BenchContext, server: BenchServer): Promise<void> {
  const msg = signedReport(ctx.main.portals[0]!, reportsFor(1, 1, 1));
  const res = await fetch(`${server.url}${msg.path}`, { method: 'POST', headers: msg.headers, body: msg.body, signal: AbortSignal.timeout(120_000) });
  if (res.status >= 300) throw new Error(`drain: webhook answered ${res.status}`);
}

export async function measureIngestion(ctx: BenchContext, server: BenchServer): Promise<void> {
  const rowLoop = ctx.shared.rowLoopEventsPerSec as number | undefined;
  const setBased = ctx.shared.setBasedEventsPerSec as number | undefined;
  const pg = ctx.kind === 'postgres';
  const runs: { batch: number; connections: number }[] = [
    { batch: 1, connections: 50 },
    { batch: 100, connections: 10 },
    { batch: 1000, connections: 10 },
  ];
  for (const { batch, connections } of runs) {
    try {
      await drain(ctx, server);
      const r = await webhookLoad(ctx, server, batch, connections);
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
        detail: `${Math.round(r.reqPerSec)} msg/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.non2xx ? `, ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}` : ''}`,
        ...(rowLoop && { baseline: { name: 'row loop', value: rowLoop, unit: 'events/s' }, ratio: events / rowLoop }),
        note: setBased ? `set-based statement baseline: ${Math.round(setBased)} events/s` : undefined,
        target,
        met: r.non2xx > 0 ? false : met,
      });
    } catch (err) {
      ctx.results.fail(`ingestion batch ${batch}`, err);
    }
  }

  const alone = ctx.shared.batch100EventsPerSec as number | undefined;
  if (!alone) return;
  try {
    const token = await ctx.sign(ctx.main);
    let stop = false;
    let reloads = 0;
    let browserErrors = 0;
    const browser = async () => {
      while (!stop) {
        try {
          await Promise.all(PULSE_CALLS.map(([, path]) => getJson(`${server.url}${path}`, token)));
          reloads++;
        } catch {
          browserErrors++;
        }
      }
    };
    await drain(ctx, server);
    const browsers = Array.from({ length: 10 }, browser);
    let r;
    try {
      // The browsers first fill the server's queues, as they would have when ingestion runs into them.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      reloads = 0;
      browserErrors = 0;
      r = await webhookLoad(ctx, server, 100, 10, true);
    } finally {
      // Always: browsers left reloading would load every later measurement.
      stop = true;
      await Promise.all(browsers);
    }
    const events = r.reqPerSec * 100;
    ctx.results.add({
      group: 'Ingestion (HTTP webhooks)',
      name: 'batches of 100 while 10 browsers reload Pulse',
      value: events,
      unit: 'events/s',
      detail: `${reloads} page reloads (${PULSE_CALLS.length} calls each) during the run (${browserErrors} failed), ${r.ok} messages completed, p99 ${r.p99} ms`,
      baseline: { name: 'batches of 100 alone', value: alone, unit: 'events/s' },
      ratio: events / alone,
      target: '>= 0.8x alone',
      met: events >= 0.8 * alone,
    });
  } catch (err) {
    ctx.results.fail('ingestion while Pulse reloads', err);
  }
}

/**
 * A probe loaded into a server under load (not a test): `BENCH_SERVER_NODE_FLAGS="--import
 * <abs path>/stall-probe.mjs"` for the bench's server. Each thread of the process records what
 * could hold every request in flight at once, on its own clock (`performance.timeOrigin` kept with
 * it): its garbage collections (start, duration, kind: 1 young, 4 full, 8 incremental marking) and
 * its event loop's blocks of over 15 ms; the HTTP thread also each API request's start and end
 * (`diagnostics_channel`). Written every 2 s to `$TMPDIR/vigil-stall-probe-<pid>-<thread>.json`;
 * `stall-report.ts` reads them (docs/performance-choices.md "Allocation-site pretenuring off").
 * Plain JavaScript: it is loaded before tsx.
 */
import dc from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { isMainThread, threadId } from 'node:worker_threads';

const BLOCK_MS = 15;
const gcs = [];
const blocks = [];
const requests = [];

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcs.push([entry.startTime, entry.duration, entry.detail?.kind ?? 0]);
}).observe({ entryTypes: ['gc'] });

// A 5 ms timer that fires late by more than BLOCK_MS: the loop was held that long.
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - last > BLOCK_MS) blocks.push([last, now - last]);
  last = now;
}, 5).unref();

if (isMainThread) {
  const started = new WeakMap();
  dc.subscribe('http.server.request.start', ({ request }) => started.set(request, performance.now()));
  dc.subscribe('http.server.response.finish', ({ request }) => {
    const at = started.get(request);
    if (at !== undefined && request.url.startsWith('/v0/api/')) requests.push([at, performance.now(), request.url.split('?')[0]]);
  });
}

const file = path.join(tmpdir(), `vigil-stall-probe-${process.pid}-${threadId}.json`);
setInterval(
  () => writeFileSync(file, JSON.stringify({ thread: threadId, origin: performance.timeOrigin, gcs, blocks, requests })),
  2000,
).unref();

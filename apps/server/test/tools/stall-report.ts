/**
 * What held a list run's slowest requests (not a test): reads the files `stall-probe.mjs` wrote for
 * one server process and, for each run of an API path (its requests with no gap over 1 s) with at
 * least 1,000 requests, prints p50 and p99, then the 100 ms windows in which at least 5 of the
 * run's slowest 1 % ended, each with what happened on each thread in the 200 ms before its end:
 * garbage collections (y young, f full, i incremental marking, with their ms) and event-loop blocks.
 * A run's p99 is its slowest 1 %: when they end together, in one or two windows, the p99 is the
 * length of the worst stall, not of a page (docs/performance-choices.md "Allocation-site pretenuring off").
 *
 *   npx tsx apps/server/test/tools/stall-report.ts <server pid>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface ProbeFile {
  thread: number;
  origin: number;
  gcs: [number, number, number][];
  blocks: [number, number][];
  requests: [number, number, string][];
}

const KINDS: Record<number, string> = { 1: 'y', 4: 'f', 8: 'i' };

function main() {
  const pid = process.argv[2];
  if (!pid) throw new Error('usage: stall-report.ts <server pid>');
  const files = readdirSync(tmpdir()).filter((f) => f.startsWith(`vigil-stall-probe-${pid}-`));
  const threads = files.map((f) => JSON.parse(readFileSync(path.join(tmpdir(), f), 'utf8')) as ProbeFile);
  const http = threads.find((t) => t.thread === 0);
  if (!http) throw new Error(`no probe file of the HTTP thread of ${pid} in ${tmpdir()}`);
  // Every thread's times on the HTTP thread's clock.
  const onHttpClock = (t: ProbeFile, at: number) => at + t.origin - http.origin;
  const byPath = new Map<string, [number, number][]>();
  for (const [start, end, url] of http.requests) {
    const requests = byPath.get(url) ?? [];
    requests.push([start, end]);
    byPath.set(url, requests);
  }
  for (const [url, requests] of byPath) {
    requests.sort((a, b) => a[0] - b[0]);
    const runs: [number, number][][] = [[]];
    for (const r of requests) {
      const run = runs[runs.length - 1];
      if (run.length && r[0] - run[run.length - 1][0] > 1000) runs.push([]);
      runs[runs.length - 1].push(r);
    }
    for (const run of runs.filter((r) => r.length >= 1000)) report(url, run, threads, onHttpClock);
  }
}

function report(url: string, run: [number, number][], threads: ProbeFile[], onHttpClock: (t: ProbeFile, at: number) => number) {
  const latencies = run.map(([s, e]) => e - s).sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  const p99 = p(0.99);
  const first = run[0][0];
  console.log(`${url}: ${run.length} requests, p50 ${p(0.5).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms`);
  const windows = new Map<number, number>();
  for (const [s, e] of run) {
    if (e - s < p99) continue;
    const window = Math.floor((e - first) / 100);
    windows.set(window, (windows.get(window) ?? 0) + 1);
  }
  for (const [w, slow] of [...windows].sort((a, b) => a[0] - b[0])) {
    if (slow < 5) continue;
    const end = first + (w + 1) * 100;
    const seen = threads.map((t) => {
      const within = (at: number, ms: number) => onHttpClock(t, at) + ms > end - 200 && onHttpClock(t, at) < end;
      const gcs = t.gcs.filter(([at, ms]) => within(at, ms)).map(([, ms, kind]) => `${KINDS[kind] ?? kind}${ms.toFixed(0)}`);
      const blocks = t.blocks.filter(([at, ms]) => within(at, ms)).map(([, ms]) => `${ms.toFixed(0)}`);
      return `thread ${t.thread}: gc ${gcs.join(' ') || '-'}, blocks ${blocks.join(' ') || '-'}`;
    });
    console.log(`  +${(w / 10).toFixed(1)} s: ${slow} of the slowest 1 % ended; ${seen.join('; ')}`);
  }
}

main();

/**
 * Local list measurement (not a test, not the bench harness): the real app in this process on a copy
 * of the bench's seeded S data directory, or on PostgreSQL with LISTS_DATABASE_URL (a database the bench
 * seeded, e.g. with BENCH_REUSE_SEED=1 at L): seeded-app.ts. Each list is walked as the bench's "every page different"
 * variant does (up to 500 pages of 10 rows over the whole list, alternating ends), through `inject`:
 * once one request at a time (CPU and wall time per request: what a request costs), then with N
 * concurrent requests (p50/p99). CPU is this one process's (HTTP, JSON, zod, PGlite), so a change can
 * be judged on a machine shared with other work; under load it is split into the database's thread, the
 * main thread, the others (V8's helpers: parallel and concurrent garbage collection, the optimizing
 * compiler) and the kernel's share (sys).
 *
 *   npx tsx apps/server/test/tools/lists-local.ts [portals|devices|cases|alerts ...]
 * Env: LISTS_SEED_DIR (default $TMPDIR/vigil-bench-pglite-S), LISTS_ROUNDS (walks of the pages, 2),
 * LISTS_CONNECTIONS (50), LISTS_DATABASE_URL, LISTS_PROFILE=dir (a CPU profile of the sequential walks; of the
 * concurrent ones with LISTS_PROFILE_AT=concurrent), LISTS_ALLOCATIONS=dir (a sampling profile of everything the
 * sequential walks allocated, the young garbage included, and the functions that allocated most per request).
 */
import { writeFileSync } from 'node:fs';
import { Session, type HeapProfiler } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { defaultSeedDir, openSeededApp } from './seeded-app.ts';
import { threadCpu, threadCpuSince } from './thread-cpu.ts';

const LISTS: Record<string, string> = {
  portals: '/v0/api/customers',
  devices: '/v0/api/devices',
  cases: '/v0/api/case-stats',
  alerts: '/v0/api/alert-stats',
};

const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const page = (offset: number) => `range=${enc([offset, 10])}`;

/** The bench's pages (bench/src/measure/lists.ts pagesOf). */
function pagesOf(base: string, count: number): string[] {
  const pages = Math.max(1, Math.min(500, Math.ceil(count / 10)));
  const step = Math.max(10, Math.floor(count / pages / 10) * 10);
  return Array.from({ length: pages }, (_, i) => `${base}?${page(((i % 2 ? pages - 1 - (i >> 1) : i >> 1) * step) % Math.max(count, 1))}`);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (n: number) => n.toFixed(2);

async function main() {
  const wanted = process.argv.slice(2).filter((a) => a in LISTS);
  const names = wanted.length ? wanted : Object.keys(LISTS);
  const rounds = Number(process.env.LISTS_ROUNDS ?? 2);
  const connections = Number(process.env.LISTS_CONNECTIONS ?? 50);
  const databaseUrl = process.env.LISTS_DATABASE_URL;
  const seeded = await openSeededApp({ seedDir: process.env.LISTS_SEED_DIR ?? defaultSeedDir(), databaseUrl });
  const get = (url: string) => seeded.get(url);
  const allocations = process.env.LISTS_ALLOCATIONS;
  const session = process.env.LISTS_PROFILE || allocations ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post(allocations ? 'HeapProfiler.enable' : 'Profiler.enable');
  }
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
  );
  for (const name of names) {
    const base = LISTS[name];
    const count = (JSON.parse((await get(`${base}?${page(0)}`)).body) as { data: { count: number } }).data.count;
    const pages = pagesOf(base, count);
    // Warm-up: every statement shape prepared once.
    for (const url of pages.slice(0, 20)) await get(url);
    const profileConcurrent = process.env.LISTS_PROFILE_AT === 'concurrent';
    if (session && allocations) await startAllocations(session);
    else if (session && !profileConcurrent) await session.post('Profiler.start');
    const walls: number[] = [];
    const cpu0 = process.cpuUsage();
    const threads0 = threadCpu();
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++)
      for (const url of pages) {
        const s = performance.now();
        await get(url);
        walls.push(performance.now() - s);
      }
    const elapsed = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const threads = threadCpuSince(threads0);
    if (session && allocations) await stopAllocations(session, name, walls.length);
    else if (session && !profileConcurrent) await stopProfile(session, name);
    walls.sort((a, b) => a - b);
    const n = walls.length;
    // Concurrent: `connections` requests in flight, each taking the next page when it ends.
    const lat: number[] = [];
    let next = 0;
    const total = n;
    if (session && profileConcurrent && !allocations) await session.post('Profiler.start');
    const cCpu0 = process.cpuUsage();
    const cThreads0 = threadCpu();
    const c0 = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < total) {
          const url = pages[next++ % pages.length];
          const s = performance.now();
          await get(url);
          lat.push(performance.now() - s);
        }
      }),
    );
    const cElapsed = performance.now() - c0;
    const cCpu = process.cpuUsage(cCpu0);
    const cThreads = threadCpuSince(cThreads0);
    if (session && profileConcurrent && !allocations) await stopProfile(session, name);
    lat.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(8)} ${count} rows, ${pages.length} pages x ${rounds}: sequential ${ms(elapsed / n)} ms/req wall, ` +
        `${ms((cpu.user + cpu.system) / 1000 / n)} ms/req CPU (database thread ${ms((threads.database * 1000) / n)}), p50 ${ms(pct(walls, 50))} p99 ${ms(pct(walls, 99))}; ` +
        `@${connections}: ${Math.round((total / cElapsed) * 1000)} req/s, ${ms((cCpu.user + cCpu.system) / 1000 / total)} ms/req CPU ` +
        `(database thread ${ms((cThreads.database * 1000) / total)}, main ${ms((cThreads.main * 1000) / total)}, others ${ms((cThreads.others * 1000) / total)}, sys ${ms(cCpu.system / 1000 / total)}), p50 ${ms(pct(lat, 50))} p99 ${ms(pct(lat, 99))} ms`,
    );
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await seeded.close();
}

async function stopProfile(session: Session, name: string): Promise<void> {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(path.join(process.env.LISTS_PROFILE!, `${name}.cpuprofile`), JSON.stringify(profile));
}

/** Every allocation sampled, also what the next scavenge frees (what sets how often the young generation is collected). */
async function startAllocations(session: Session): Promise<void> {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}

/** Writes the profile and prints the bytes per request of the functions that allocated most (by self size). */
async function stopAllocations(session: Session, name: string, requests: number): Promise<void> {
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(path.join(process.env.LISTS_ALLOCATIONS!, `${name}.heapprofile`), JSON.stringify(profile));
  const bySite = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapProfiler.SamplingHeapProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/')}:${lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const kb = (bytes: number) => (bytes / requests / 1024).toFixed(1);
  console.log(`${name}: ${kb(total)} KB allocated per request (sampled; this thread only, not the database thread)`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${kb(bytes).padStart(6)} KB  ${site}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * Local Pulse page measurement (not a test, not the bench harness): the real app in this process on a
 * copy of the bench's seeded S data directory (seeded-app.ts). First each Pulse call one at a time:
 * the process's CPU and the embedded database thread's CPU per call (Linux: the thread's schedstat).
 * Then the whole page (all calls in parallel, as the bench's dashboard phase) with and without the
 * trend call, interleaved: wall p50 of each and the ratio, the database thread's CPU and the process's
 * CPU per page. The page's calls queue for the database thread, and the bench runs the server on one
 * core by default, so those CPU figures are what to judge a change by on a machine shared with other work.
 *
 *   npx tsx apps/server/test/tools/pulse-local.ts
 * Env: PULSE_SEED_DIR (default $TMPDIR/vigil-bench-pglite-S), PULSE_ROUNDS (page loads of each, 200),
 * PULSE_EIGHTH (a call to load instead of the trend: what any eighth call adds to the page).
 */
import { loadavg } from 'node:os';
import { PULSE_CALLS } from '../../../../bench/src/measure/dashboard.ts';
import { defaultSeedDir, openSeededApp } from './seeded-app.ts';
import { threadCpu } from './thread-cpu.ts';

const ms = (n: number) => n.toFixed(2);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const processCpu = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function main() {
  const rounds = Number(process.env.PULSE_ROUNDS ?? 200);
  const seeded = await openSeededApp({ seedDir: process.env.PULSE_SEED_DIR ?? defaultSeedDir() });
  // The database's thread: the one (besides this one) that works while the database alone does.
  const before = threadCpu();
  for (let i = 0; i < 20; i++) await seeded.database.exec('select count(*) from generate_series(1, 200000)');
  const after = threadCpu();
  const dbTid = [...after]
    .filter(([tid]) => tid !== process.pid)
    .sort((a, b) => b[1] - (before.get(b[0]) ?? 0) - (a[1] - (before.get(a[0]) ?? 0)))[0][0];
  const dbCpu = () => (threadCpu().get(dbTid) ?? 0) * 1000;
  console.log(`load average before: ${load()}`);
  for (let i = 0; i < 20; i++) for (const [, url] of PULSE_CALLS) await seeded.get(url);

  for (const [name, url] of PULSE_CALLS) {
    const n = Math.max(50, Math.floor(rounds / 2));
    const db0 = dbCpu();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await seeded.get(url);
    const wall = performance.now() - t0;
    console.log(
      `  ${name.padEnd(40)} wall ${ms(wall / n)} ms, CPU ${ms(processCpu(cpu0) / n)} ms, database thread ${ms((dbCpu() - db0) / n)} ms per call`,
    );
  }

  const pages = {
    // PULSE_EIGHTH=<url>: that call instead of the trend (what any eighth call adds to the page).
    with: {
      urls: PULSE_CALLS.map(([name, url]) => (name === 'reliability-trend' ? (process.env.PULSE_EIGHTH ?? url) : url)),
      walls: [] as number[],
      db: 0,
      cpu: 0,
    },
    without: {
      urls: PULSE_CALLS.filter(([name]) => name !== 'reliability-trend').map(([, url]) => url),
      walls: [] as number[],
      db: 0,
      cpu: 0,
    },
  };
  for (let i = 0; i < rounds; i++) {
    for (const page of [pages.with, pages.without]) {
      const db0 = dbCpu();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(page.urls.map((url) => seeded.get(url)));
      page.walls.push(performance.now() - t0);
      page.db += dbCpu() - db0;
      page.cpu += processCpu(cpu0);
    }
  }
  const [a, b] = [median(pages.with.walls), median(pages.without.walls)];
  console.log(
    `page with the trend ${ms(a)} ms p50 (database thread ${ms(pages.with.db / rounds)} ms), without ${ms(b)} ms p50 ` +
      `(database thread ${ms(pages.without.db / rounds)} ms): ${(a / b).toFixed(3)}x wall, ` +
      `${(pages.with.db / pages.without.db).toFixed(3)}x database thread, ` +
      `${(pages.with.cpu / pages.without.cpu).toFixed(3)}x process CPU (${ms(pages.with.cpu / rounds)} against ${ms(pages.without.cpu / rounds)} ms)`,
  );
  console.log(`load average after: ${load()}`);
  await seeded.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

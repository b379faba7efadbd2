/**
 * Local Pulse page measurement (not a test, not the bench harness): the real app in this process on a
 * copy of the bench's seeded S data directory (`BENCH_REUSE_SEED=1 npm run bench -- S` keeps it in
 * $TMPDIR/vigil-bench-pglite-S). First each Pulse call one at a time: the process's CPU and the
 * embedded database thread's CPU per call (Linux: the thread's schedstat). Then the whole page (all
 * calls in parallel, as the bench's dashboard phase) with and without the trend call, interleaved:
 * wall p50 of each and the ratio, and the database thread's CPU per page. The page's calls queue for
 * that thread, so its CPU is the figure to judge a change by on a machine shared with other work.
 *
 *   npx tsx apps/server/test/tools/pulse-local.ts
 * Env: PULSE_SEED_DIR (default $TMPDIR/vigil-bench-pglite-S), PULSE_ROUNDS (page loads of each, 200).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { createDeps } from '../../src/deps.ts';
import { createAccessTokens } from '../../src/security/access-tokens.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { PULSE_CALLS } from '../../../../bench/src/measure/dashboard.ts';

const APP_SECRET = 'vigil-bench-app-secret-0123456789abcdefghijklmnop';
const ms = (n: number) => n.toFixed(2);

/** CPU milliseconds of each thread of this process so far (Linux: /proc/self/task/<tid>/schedstat, in ns). */
function threadCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      cpu.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
    } catch {
      // the thread ended meanwhile
    }
  }
  return cpu;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const rounds = Number(process.env.PULSE_ROUNDS ?? 200);
  const seedDir = process.env.PULSE_SEED_DIR ?? path.join(tmpdir(), 'vigil-bench-pglite-S');
  const seed = JSON.parse(readFileSync(path.join(seedDir, 'seed.json'), 'utf8')) as {
    tenants: { id: number; name: string; adminUserId: number; portals: unknown[] }[];
  };
  const main = [...seed.tenants].sort((a, b) => b.portals.length - a.portals.length)[0];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-pulse-local-'));
  cpSync(seedDir, dataDir, { recursive: true });
  const database = await openDatabase({ dataDir });
  await migrateDatabase(database);
  // The database's thread: the one (besides this one) that works while the database alone does.
  const before = threadCpu();
  for (let i = 0; i < 20; i++) await database.exec('select count(*) from generate_series(1, 200000)');
  const after = threadCpu();
  const dbTid = [...after]
    .filter(([tid]) => tid !== String(process.pid))
    .sort((a, b) => b[1] - (before.get(b[0]) ?? 0) - (a[1] - (before.get(a[0]) ?? 0)))[0][0];
  const dbCpu = () => threadCpu().get(dbTid) ?? 0;
  const config = loadConfig({ APP_SECRET, SEED: 'none', SIMULATOR: 'off', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const deps = createDeps(config, database, pino({ level: 'silent' }), { rateLimit: false, jobs: false });
  await deps.bus.start();
  const app = await buildApp(deps);
  await app.ready();
  const token = await createAccessTokens(APP_SECRET, systemClock).sign({
    userId: main.adminUserId,
    userName: 'Bench Admin',
    tenantId: main.id,
    tenantName: main.name,
    roles: ['Admin'],
  });
  const headers = { authorization: `Bearer ${token}` };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  };
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (let i = 0; i < 20; i++) for (const [, url] of PULSE_CALLS) await get(url);

  for (const [name, url] of PULSE_CALLS) {
    const n = Math.max(50, Math.floor(rounds / 2));
    const db0 = dbCpu();
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await get(url);
    const wall = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    console.log(
      `  ${name.padEnd(40)} wall ${ms(wall / n)} ms, CPU ${ms((used.user + used.system) / 1000 / n)} ms, database thread ${ms((dbCpu() - db0) / n)} ms per call`,
    );
  }

  const withTrend = PULSE_CALLS.map(([, url]) => url);
  const withoutTrend = PULSE_CALLS.filter(([name]) => name !== 'reliability-trend').map(([, url]) => url);
  const pages = { with: [] as number[], without: [] as number[] };
  const dbBusy = { with: 0, without: 0 };
  const cpuUsed = { with: 0, without: 0 };
  for (let i = 0; i < rounds; i++) {
    for (const kind of ['with', 'without'] as const) {
      const db0 = dbCpu();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all((kind === 'with' ? withTrend : withoutTrend).map(get));
      pages[kind].push(performance.now() - t0);
      dbBusy[kind] += dbCpu() - db0;
      const used = process.cpuUsage(cpu0);
      cpuUsed[kind] += (used.user + used.system) / 1000;
    }
  }
  const a = median(pages.with);
  const b = median(pages.without);
  console.log(
    `page with the trend ${ms(a)} ms p50 (database thread ${ms(dbBusy.with / rounds)} ms), without ${ms(b)} ms p50 ` +
      `(database thread ${ms(dbBusy.without / rounds)} ms): ${(a / b).toFixed(3)}x wall, ${(dbBusy.with / dbBusy.without).toFixed(3)}x database thread, ` +
      `${(cpuUsed.with / cpuUsed.without).toFixed(3)}x process CPU (${ms(cpuUsed.with / rounds)} against ${ms(cpuUsed.without / rounds)} ms)`,
  );
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await app.close();
  await deps.bus.stop();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import { freePort } from '../../../e2e/support/free-port.ts';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../../apps/server/src/db/client.ts';
import { hasTaskset, setAffinity } from './cpu.ts';
import { collectServerGarbage } from './server-gc.ts';

/** The production entry point, unchanged. */
const ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../apps/server/src/main.ts');

export interface BenchServer {
  url: string;
  pid: number;
  /** When the process was spawned (its jobs' claims are later). */
  startedAt: Date;
  /** Where the server's stdout/stderr go. */
  logFile: string;
  logBytes(): number;
  /** Resident memory of the server process now, in bytes (Linux /proc). */
  rss(): number;
  /** A full garbage collection in the server (lib/server-gc.ts); answers the JavaScript heap in use after it, in bytes. */
  collectGarbage(): Promise<number>;
  /** Peak resident memory since start (VmHWM), in bytes. */
  peakRss(): number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  dataDir: string;
  databaseUrl?: string;
  appSecret: string;
  /** Write a V8 CPU profile of the whole server run here (node --cpu-prof). */
  cpuProfileDir?: string;
  /** CPU the server is pinned to (taskset), when the machine has more than one. */
  cpu?: number;
  /** The server's LOG_LEVEL (warn when absent: warnings and errors only). */
  logLevel?: string;
  /** More environment for the server (the notifications phase: its SMTP receiver, private targets allowed). */
  env?: Record<string, string>;
}

function procStatusBytes(pid: number, field: string): number {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return 0;
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.replace(/\D+/g, '')) * 1024 : 0;
}

/**
 * Starts the server as its own node process (like production), on a random port, and waits
 * for /healthz. One process (node --import tsx), so its pid is the server's pid for RSS.
 */
export async function startBenchServer(opts: ServerOptions): Promise<BenchServer> {
  const port = await freePort();
  // Where the inspector opens when asked (SIGUSR1, collectGarbage): not opened otherwise.
  const inspectPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: opts.dataDir,
    APP_SECRET: opts.appSecret,
    SEED: 'none',
    SIMULATOR: 'off',
    LOG_LEVEL: opts.logLevel ?? 'warn',
    // One load generator on 127.0.0.1 would otherwise measure the limiter, not the server.
    RATE_LIMIT_PER_MINUTE: '0',
    NODE_ENV: 'production',
    // The bench pays through the sandbox on purpose (docs/decisions.md 40 refuses it by default in production).
    PAYMENTS_SANDBOX_IN_PRODUCTION: '1',
    ...opts.env,
  };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  const profileArgs = opts.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfileDir}`] : [];
  // BENCH_SERVER_NODE_FLAGS: more flags for the server's node (e.g. "--trace-gc-nvp", whose lines go to its log file).
  const extraArgs = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const nodeArgs = [process.execPath, ...profileArgs, ...extraArgs, `--inspect-port=127.0.0.1:${inspectPort}`, '--import', 'tsx', ENTRY];
  // taskset execs node in place (same pid), and every thread node starts inherits the CPU.
  const [cmd, ...args] = opts.cpu !== undefined && hasTaskset() ? ['taskset', '-c', String(opts.cpu), ...nodeArgs] : nodeArgs;
  // The server's own log (warnings and errors) goes to a file, so the bench output stays a table.
  const logFile = path.join(tmpdir(), `vigil-bench-server-${port}.log`);
  const log = openSync(logFile, 'w');
  const startedAt = new Date();
  const child: ChildProcess = spawn(cmd, args, { env, stdio: ['ignore', log, log] });
  closeSync(log);
  const pid = child.pid!;
  const url = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`the bench server exited during start-up (log: ${logFile}):\n${readFileSync(logFile, 'utf8').slice(-800)}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error('the bench server did not answer /healthz within 120 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  if (opts.cpu !== undefined && process.env.BENCH_PIN === 'split') splitServerThreads(pid, opts.cpu);
  return {
    url,
    pid,
    startedAt,
    logFile,
    logBytes: () => (existsSync(logFile) ? statSync(logFile).size : 0),
    rss: () => procStatusBytes(pid, 'VmRSS'),
    collectGarbage: () => collectServerGarbage(pid, inspectPort),
    peakRss: () => procStatusBytes(pid, 'VmHWM'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 40_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * BENCH_PIN=split: the server's main thread (HTTP, JSON, signatures) keeps its CPU, and every other
 * thread of it, the embedded database's among them (db/pglite-remote.ts), moves to the other CPU,
 * which it shares with the load generator. Threads the main thread starts later stay on its CPU.
 */
function splitServerThreads(pid: number, cpu: number): void {
  const other = cpu === 0 ? 1 : 0;
  // -a: every thread of the process; then the main thread (its tid is the pid) alone back.
  setAffinity(pid, String(other));
  execFileSync('taskset', ['-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}

/** The server's job timers first fire this long after its start-up tasks (scheduler.ts: at most every 5 s). */
const FIRST_TICK_MS = 5_000;

/**
 * PostgreSQL: waits until the jobs the server started have run their first ticks (job_runs claimed
 * since `since`, all finished, the 5 s offline-alerts job's among them), so their start-up work (the
 * first offline-alerts tick over a freshly seeded data set, the first rollup run) is not measured as
 * part of the first variants; then vacuums, as after the seed: the first offline-alerts tick resolves
 * the seeded open alerts whose devices are online (20,000 at L), which leaves most alert pages not
 * all-visible (a deep alerts page then fetched 50,010 heap rows), a state autovacuum ends in a running
 * database. Returns the seconds waited (at most `timeoutMs`).
 */
export async function waitForFirstJobTicks(databaseUrl: string, since: Date, timeoutMs = 180_000): Promise<number> {
  const started = performance.now();
  const database = await openDatabase({ databaseUrl });
  try {
    await new Promise((r) => setTimeout(r, FIRST_TICK_MS + 1_000));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const result = (await database.db.execute(
        sql`select count(*) filter (where finished_at is null)::int as running,
                   count(*) filter (where job = 'offline-alerts' and finished_at is not null)::int as alerts_done
              from job_runs where created_at >= ${since.toISOString()}::timestamptz - interval '1 second'`,
      )) as { rows: { running: number; alerts_done: number }[] };
      const row = result.rows[0];
      if (row && row.running === 0 && row.alerts_done > 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await database.exec('vacuum analyze');
  } finally {
    await database.close();
  }
  return (performance.now() - started) / 1000;
}

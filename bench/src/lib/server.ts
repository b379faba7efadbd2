import { freePort } from '../../../e2e/support/free-port.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTaskset } from './cpu.ts';

/** The production entry point, unchanged. */
const ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../apps/server/src/main.ts');

export interface BenchServer {
  url: string;
  pid: number;
  /** Where the server's stdout/stderr go. */
  logFile: string;
  logBytes(): number;
  /** Resident memory of the server process now, in bytes (Linux /proc). */
  rss(): number;
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
}

function procStatusBytes(pid: number, field: string): number {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return 0;
  const line = readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.replace(/\D+/g, '')) * 1024 : 0;
}

/**
 * Starts the server as its own node process (like production), on a random port, and waits
 * for /healthz. One process (node --import tsx), so its pid is the server's pid for RSS.
 */
export async function startBenchServer(opts: ServerOptions): Promise<BenchServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: opts.dataDir,
    APP_SECRET: opts.appSecret,
    SEED: 'none',
    SIMULATOR: 'off',
    LOG_LEVEL: 'warn',
    // One load generator on 127.0.0.1 would otherwise measure the limiter, not the server.
    RATE_LIMIT_PER_MINUTE: '0',
    NODE_ENV: 'production',
  };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  const profileArgs = opts.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfileDir}`] : [];
  const nodeArgs = [process.execPath, ...profileArgs, '--import', 'tsx', ENTRY];
  // taskset execs node in place (same pid), and every thread node starts inherits the CPU.
  const [cmd, ...args] = opts.cpu !== undefined && hasTaskset() ? ['taskset', '-c', String(opts.cpu), ...nodeArgs] : nodeArgs;
  // The server's own log (warnings and errors) goes to a file, so the bench output stays a table.
  const logFile = path.join(tmpdir(), `vigil-bench-server-${port}.log`);
  const log = openSync(logFile, 'w');
  const child: ChildProcess = spawn(cmd!, args, { env, stdio: ['ignore', log, log] });
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
  return {
    url,
    pid,
    logFile,
    logBytes: () => (existsSync(logFile) ? statSync(logFile).size : 0),
    rss: () => procStatusBytes(pid, 'VmRSS'),
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

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../free-port.ts';

/**
 * A real server process (src/main.ts) on a PGlite data directory, started as scripts/start.mjs
 * starts it: node with tsx as a loader, one process, so SIGKILL ends the server itself (tsx's CLI
 * would be a parent that leaves its node child running).
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface KillableServer {
  child: ChildProcess;
  url: string;
  output: string[];
  exited: Promise<void>;
}

export async function startKillableServer(dataDir: string, appSecret: string): Promise<KillableServer> {
  const port = await freePort();
  const output: string[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_SECRET: appSecret,
    SEED: 'none',
    SIMULATOR: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverDir, 'src/main.ts')], {
    cwd: serverDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c) => output.push(String(c)));
  child.stderr.on('data', (c) => output.push(String(c)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { child, url, output, exited };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output.join('')}`);
}

/** kill -9: no shutdown code runs, whatever the server was doing. */
export async function killHard(server: KillableServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

export async function stopGently(server: KillableServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const killer = setTimeout(() => server.child.kill('SIGKILL'), 20_000);
  await server.exited;
  clearTimeout(killer);
}

import { freePort } from './free-port.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface StartedServer {
  url: string;
  dataDir: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the console as a user does (`npm start`), on a fresh DATA_DIR and a free port. */
export async function startConsole(env: Record<string, string> = {}): Promise<StartedServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'vigil-e2e-'));
  const port = String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn('node', [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    // PUBLIC_URL is the address the browser uses, so mail links and checkout returns stay on one origin.
    env: { ...process.env, PORT: port, DATA_DIR: dataDir, SEED: 'none', SIMULATOR: 'off', LOG_LEVEL: 'warn', PUBLIC_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`console exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`console did not become ready:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    output: () => log,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => {
          if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
          resolve(code);
        });
        child.kill(signal);
      }),
  };
}

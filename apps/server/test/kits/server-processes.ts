import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real server processes (`src/main.ts` through tsx) on a given database, used by the multi-process tests. */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: string[];
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = 20_000 + Math.floor(Math.random() * 30_000);
  const output: string[] = [];
  const child = spawn(tsx, [path.join(serverDir, 'src/main.ts')], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      SEED: 'none',
      SIMULATOR: 'off',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vigil-notify-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c) => output.push(String(c)));
  child.stderr.on('data', (c) => output.push(String(c)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { child, url, output };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output.join('')}`);
}

export async function stopServerProcess(proc: ServerProcess | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null) return;
  const exited = new Promise((r) => proc.child.once('exit', r));
  proc.child.kill('SIGTERM');
  const killer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

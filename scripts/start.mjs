#!/usr/bin/env node
// `npm start`: builds the web app when it is missing or older than its sources,
// then runs the server (migrations apply at start). SIGINT/SIGTERM are passed on
// so the server finishes in-flight requests and closes the database cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const newest = (dir) => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
};
const built = path.join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/public', 'packages/contracts/src'].map((d) => path.join(root, d));
const stale =
  !existsSync(built) ||
  Math.max(...sources.map(newest), statSync(path.join(root, 'apps/web/index.html')).mtimeMs) > statSync(built).mtimeMs;
if (stale) {
  console.log('Building the web app...');
  const res = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
// tsx as a loader in the server's own process, not its CLI: the CLI's parent process relays a
// signal and SIGKILLs the server when it has not acknowledged it within ~60 ms, which a server busy
// under load did not, so a SIGTERM cut its in-flight requests instead of draining them.
const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(root, 'apps/server/src/main.ts')], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

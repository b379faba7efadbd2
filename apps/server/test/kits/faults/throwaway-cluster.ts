import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../free-port.ts';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary directory, its own port), so a test
 * can restart a real server without touching the machine's shared cluster that other tests use.
 * Needs the server binaries (/usr/lib/postgresql/<version>/bin) and, as root, the postgres user.
 */
export interface ThrowawayCluster {
  url: string;
  port: number;
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

/** The bin directory of the newest installed PostgreSQL server, or why there is none. */
export function postgresBinDir(): { dir: string } | { missing: string } {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return { missing: `${root} not found (PostgreSQL server binaries are not installed)` };
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')) && existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((x, y) => Number(y) - Number(x));
  if (!versions[0]) return { missing: `no initdb and pg_ctl under ${root}/*/bin` };
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser'))
    return { missing: 'running as root without runuser' };
  return { dir: path.join(root, versions[0], 'bin') };
}

export async function startThrowawayCluster(binDir: string): Promise<ThrowawayCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  // initdb and the server refuse to run as root: as root they run as the postgres user.
  const pgBin = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(binDir, tool), ...args]) : run(path.join(binDir, tool), args);
  const port = await freePort();
  await pgBin('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (...args: string[]) => pgBin('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', ...args]);
  await ctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: async () => {
      await ctl('-m', 'fast', 'restart');
    },
    destroy: async () => {
      await ctl('-m', 'immediate', 'stop').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

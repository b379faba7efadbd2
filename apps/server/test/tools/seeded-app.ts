/**
 * The real app in this process on the bench's seeded data, for the measurement tools of this folder:
 * a copy of a seeded PGlite data directory (`BENCH_REUSE_SEED=1 npm run bench -- S` keeps one in
 * $TMPDIR/vigil-bench-pglite-S), or a PostgreSQL database the bench seeded. Requests go through
 * `inject` with an access token of the main tenant's Admin (the tenant with the most portals).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { createDeps, type AppDeps } from '../../src/deps.ts';
import { createAccessTokens } from '../../src/security/access-tokens.ts';
import { systemClock } from '../../src/lib/clock.ts';

/** The bench's APP_SECRET (bench/src/lib/server.ts): its seeded secrets open with it. */
const APP_SECRET = 'vigil-bench-app-secret-0123456789abcdefghijklmnop';

export interface SeededApp {
  database: Database;
  deps: AppDeps;
  /** The main tenant's id. */
  tenantId: number;
  /** GET `url` as the main tenant's Admin; throws unless 200. */
  get(url: string): Promise<{ body: string }>;
  close(): Promise<void>;
}

export const defaultSeedDir = () => path.join(tmpdir(), 'vigil-bench-pglite-S');

export async function openSeededApp(opts: { seedDir: string; databaseUrl?: string }): Promise<SeededApp> {
  const seed = JSON.parse(readFileSync(path.join(opts.seedDir, 'seed.json'), 'utf8')) as {
    tenants: { id: number; name: string; adminUserId: number; portals: unknown[] }[];
  };
  const main = [...seed.tenants].sort((a, b) => b.portals.length - a.portals.length)[0];
  let dataDir: string | undefined;
  if (!opts.databaseUrl) {
    dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-seeded-app-'));
    cpSync(opts.seedDir, dataDir, { recursive: true });
  }
  const database = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir });
  await migrateDatabase(database);
  // As the maintenance job would soon after: a migration that rewrote a table leaves its pages not all-visible,
  // and every index-only read would visit the heap until then.
  if (!opts.databaseUrl) await database.exec('vacuum analyze');
  const config = loadConfig({ APP_SECRET, SEED: 'none', SIMULATOR: 'off', LOG_LEVEL: 'silent', DATA_DIR: dataDir ?? tmpdir() });
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
  return {
    database,
    deps,
    tenantId: main.id,
    async get(url) {
      const res = await app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res;
    },
    async close() {
      await app.close();
      await deps.bus.stop();
      await database.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

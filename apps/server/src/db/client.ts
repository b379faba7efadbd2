import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The drizzle database, whichever driver is underneath (PGlite or node-postgres). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs plain SQL text (several statements allowed); used by migrations and maintenance. */
  exec(sqlText: string): Promise<void>;
  /** Subscribes to a NOTIFY channel (PostgreSQL) or the in-process equivalent (PGlite). */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for tests. */
  dataDir?: string;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir ?? 'memory://');
}

async function openPglite(dataDir: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  let location = dataDir;
  if (!dataDir.startsWith('memory://')) {
    location = path.resolve(dataDir, 'pglite');
    mkdirSync(location, { recursive: true });
  }
  const client = await PGlite.create(location);
  const db = drizzle(client, { schema }) as unknown as Db;
  // PGlite is one session in one process: NOTIFY/LISTEN work within it.
  return {
    kind: 'pglite',
    db,
    exec: async (text) => {
      await client.exec(text);
    },
    listen: async (channel, onPayload) => client.listen(channel, onPayload).then((unsub) => async () => unsub()),
    notify: async (channel, payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: url, max: 10, statement_timeout: 30_000, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the process (security guide rule 9).
  pool.on('error', (err) => console.error('postgres pool error:', err.message));
  const db = drizzle(pool, { schema }) as unknown as Db;
  const listeners = new Map<string, Set<(p: string) => void>>();
  let listenClient: import('pg').PoolClient | undefined;
  async function ensureListenClient() {
    if (listenClient) return listenClient;
    const client = await pool.connect();
    client.on('notification', (msg) => listeners.get(msg.channel)?.forEach((fn) => fn(msg.payload ?? '')));
    client.on('error', () => {
      listenClient = undefined;
    });
    listenClient = client;
    return client;
  }
  return {
    kind: 'postgres',
    db,
    exec: async (text) => {
      await pool.query(text);
    },
    listen: async (channel, onPayload) => {
      const client = await ensureListenClient();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      }
      set.add(onPayload);
      return async () => {
        set!.delete(onPayload);
      };
    },
    notify: async (channel, payload) => {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      listenClient?.release();
      listenClient = undefined;
      await pool.end();
    },
  };
}

/** Runs raw SQL and returns its rows, the same on both drivers (both answer `{ rows }`). */
export async function queryRows<T>(executor: Executor, query: import('drizzle-orm').SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

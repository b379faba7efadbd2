import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { deferBoundaries } from './deferred-boundaries.ts';
import { pgliteTransactionOf } from './commands.ts';
import { listenSession } from './listen-session.ts';
import { PgliteNotifications } from './pglite-notifications.ts';
import { PgliteRemote } from './pglite-remote.ts';
import { pgliteRunner, postgresRunner, type PreparedRunner } from './prepared.ts';
import { PriorityGate, type Lane } from './priority-gate.ts';
/**
 * The drizzle database, whichever driver is underneath (PGlite or node-postgres). Without drizzle's
 * relational query API (no schema given to drizzle()): nothing used it, and drizzle builds a query
 * builder for every table of the schema at every transaction it opens, 36 of them, about 3 % of the
 * request thread's CPU on a list page (perf, docs/performance-choices.md "What surrounded the database's work").
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /**
   * The same database, its transactions admitted before those of `db` (priority-gate.ts): for
   * webhook ingestion, whose senders wait for the commit. Only for short write transactions.
   */
  urgentDb: Db;
  /**
   * The same database for reads (db/read-scope.ts, route.ts `readTx`): read-only transactions. On
   * PGlite each of their statements runs as a transaction of its own (pglite-remote.ts
   * readTransaction), so the one session is not held between them; on PostgreSQL it is `db`.
   */
  readDb: Db;
  /** Announces urgent work on its way (PriorityGate.expect): reads keep to their share until it is done. */
  expectUrgent(): () => void;
  /** Statements planned once per session (prepared.ts): for hot statements of a fixed shape. */
  prepared: PreparedRunner;
  /** Runs plain SQL text (several statements allowed); used by migrations and maintenance. */
  exec(sqlText: string): Promise<void>;
  /** Subscribes to a NOTIFY channel (PostgreSQL) or the in-process equivalent (PGlite). */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Whether notifications reach this process now: PostgreSQL's LISTEN session is up (it reconnects
   * by itself after a loss, listen-session.ts); always on PGlite.
   */
  listening(): boolean;
  /**
   * Whether a transaction's notifications have reached this process's listeners by the time its
   * commit returns, and every writer is in this process: PGlite (pglite-notifications.ts). On
   * PostgreSQL they come back over LISTEN a moment after the commit, and other processes write too.
   * What a process keeps on the strength of "no notification yet" is exact only where this holds.
   */
  notifiesAtCommit: boolean;
  /**
   * Sends the payloads on the channel, in order: inside `executor`'s transaction they reach the
   * listeners at its commit (never on rollback), otherwise at once. PostgreSQL: one `pg_notify`
   * statement; PGlite: in this process (pglite-notifications.ts).
   */
  notify(channel: string, payloads: string[], executor?: Executor): Promise<void>;
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
  const { drizzle } = await import('drizzle-orm/pglite');
  let location = dataDir;
  if (!dataDir.startsWith('memory://')) {
    location = path.resolve(dataDir, 'pglite');
    mkdirSync(location, { recursive: true });
  }
  // PGlite runs on a thread of its own (pglite-remote.ts): this thread keeps HTTP, JSON and signatures.
  const client = await PgliteRemote.open(location);
  // One session, units chosen by lane (PGlite itself would take them in arrival order). Several
  // admitted at once: the statements of admitted units wait on the database's thread (pglite-worker.mjs
  // holds the session's lock per transaction and per read), so that thread starts the next the
  // moment one ends, instead of after its answer has crossed this thread's busy event loop; and the
  // more are admitted, the more travel in one message each way (pglite-remote.ts), each crossing a
  // wake-up of the other thread (docs/performance-choices.md "Messages between the threads in batches").
  // Writes keep to two: more would split the ingestion groups that form while they wait here.
  const gate = new PriorityGate({
    capacity: PGLITE_ADMITTED,
    urgentCapacity: PGLITE_URGENT_ADMITTED,
    normalWhileUrgent: 1,
    sessionTime: () => client.sessionTime,
    readShare: PGLITE_READ_SHARE,
  });
  const notifications = new PgliteNotifications();
  type Callback = Parameters<typeof client.transaction>[0];
  const inLane = (lane: Lane, reads = false) =>
    drizzle(
      throughGate(client, {
        transaction: (target, [callback]) =>
          gate.run(lane, () =>
            // A read-only transaction sends no notification: nothing to hold until its commit.
            reads
              ? target.readTransaction(callback as Callback)
              : notifications.around((cb) => target.transaction(cb, lane === 'urgent'), callback as Callback),
          ),
        query: (target, args) => gate.run(lane, () => target.query(...(args as Parameters<typeof target.query>))),
      }) as never,
    ) as unknown as Db;
  // PGlite is one session in one process: its listeners are all here (pglite-notifications.ts).
  return {
    kind: 'pglite',
    db: inLane('normal'),
    readDb: inLane('normal', true),
    urgentDb: inLane('urgent'),
    prepared: pgliteRunner(),
    expectUrgent: () => gate.expect(),
    exec: async (text) => {
      await client.exec(text);
    },
    listen: (channel, onPayload) => {
      const unlisten = notifications.listen(channel, onPayload);
      return Promise.resolve(() => Promise.resolve(unlisten()));
    },
    listening: () => true,
    notifiesAtCommit: true,
    // notifications.notify throws synchronously (payload too long): the executor turns that into a rejection.
    notify: (channel, payloads, executor) =>
      new Promise<void>((resolve) => {
        notifications.notify(channel, payloads, executor && pgliteTransactionOf(executor));
        resolve();
      }),
    close: () => client.close(),
  };
}

/**
 * Reads' credit per unit of write time on PGlite: reads get a sixth of the session while ingestion is
 * busy. Since the credit counts the time each lane held the session (not the units' durations, which
 * charged reads their waits behind writes), 0.25 gave them their full fifth and ingestion under ten
 * Pulse browsers read 0.74-0.82x alone; 0.2 read 0.86 and 0.87x with as many reloads as before
 * (docs/performance-choices.md "Reads charged for the time they held the session").
 */
const PGLITE_READ_SHARE = 0.2;

/** Units admitted at once on PGlite's one session (see openPglite; 4 and 16 measured, 8 kept). */
const PGLITE_ADMITTED = 8;
/** Of those, urgent ones (webhook ingestion): two, the second waiting on the database's thread. */
const PGLITE_URGENT_ADMITTED = 2;

const POOL_SIZE = 10;

/**
 * drizzle's node-postgres transaction() sends `begin` before its try/finally: when that statement
 * fails (the connection was lost between connect and begin) it never releases the client, which
 * then holds its pool slot and its PriorityGate slot for good; ten such losses and every request
 * waited forever. So the first statement on a checked-out client, if it fails, releases the client
 * (as broken); drizzle's own release, had it come, is then a no-op (see the release wrapper). Since
 * deferred-boundaries.ts holds BEGIN back, the first statement sent is inside drizzle's try/finally
 * anyway; this stays as the guard that does not depend on how drizzle orders its calls, and releases
 * the client as broken rather than back to the pool.
 */
function releaseIfFirstStatementFails(client: import('pg').PoolClient): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to put the method back; called with apply(client, ...)
  const query = client.query;
  client.query = ((...args: unknown[]) => {
    client.query = query;
    const result = (query as (...a: unknown[]) => unknown).apply(client, args);
    if (result instanceof Promise) {
      return result.catch((err: unknown) => {
        client.release(err instanceof Error ? err : true);
        throw err;
      });
    }
    return result;
  }) as typeof client.query;
}

/**
 * The driver client as drizzle should see it: the listed methods replaced (each gets the real
 * client and the call's arguments), everything else the client's own, bound to it.
 */
function throughGate<C extends object>(client: C, replaced: { [K in keyof C]?: (target: C, args: unknown[]) => unknown }): C {
  return new Proxy(client, {
    get(target, prop) {
      const replacement = replaced[prop as keyof C];
      if (replacement) return (...args: unknown[]) => replacement(target, args);
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Session setting of every pooled connection: plan without parallel workers (as PGlite always does).
 * Workers pay off for one big query on idle cores; the server runs many short ones at once (50
 * connections on 2 CPUs shared with PostgreSQL), where a worker's start and the Gather only add work
 * (measured when the devices list set it for its sorted pages only: sorted by lastOnline, a top-N
 * sort of 100,000 rows at L, 149-210 -> 407-608 req/s). The jobs' statements plan without them too.
 */
const PARALLEL_OFF = '-c max_parallel_workers_per_gather=0';

async function openPostgres(url: string): Promise<Database> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    statement_timeout: 30_000,
    connectionTimeoutMillis: 10_000,
    options: PARALLEL_OFF,
  });
  // An idle client losing its connection must not crash the process (docs/decisions.md 39, rule 9).
  pool.on('error', (err) => console.error('postgres pool error:', err.message));
  // Nor a checked-out one: a connection lost between the statements of a transaction makes its
  // client emit 'error', which without a listener ends the process. The statement that needed it
  // fails (503 UNAVAILABLE, connection-errors.ts) and the pool drops the client on release.
  // Each client sends its transactions' boundaries with other statements (deferred-boundaries.ts).
  pool.on('connect', (client) => {
    client.on('error', () => {});
    deferBoundaries(client);
  });
  // Transactions take a pooled client through the gate (drizzle calls pool.connect() per transaction);
  // reads may hold at most 6 of the 10 connections while ingestion is busy.
  const gate = new PriorityGate({ capacity: POOL_SIZE, normalWhileUrgent: POOL_SIZE - 4 });
  const inLane = (lane: Lane) =>
    drizzle(
      throughGate(pool, {
        connect: async (target, args) => {
          if (args.length > 0) return (target.connect as (...a: unknown[]) => unknown)(...args);
          const release = await gate.acquire(lane);
          try {
            const client = await target.connect();
            const done = client.release.bind(client);
            let released = false;
            client.release = (...a: Parameters<typeof client.release>) => {
              if (released) return;
              released = true;
              release();
              return done(...a);
            };
            releaseIfFirstStatementFails(client);
            return client;
          } catch (err) {
            release();
            throw err;
          }
        },
      }),
    ) as unknown as Db;
  const db = inLane('normal');
  const events = listenSession(pg, url);
  return {
    kind: 'postgres',
    db,
    readDb: db,
    urgentDb: inLane('urgent'),
    prepared: postgresRunner(),
    expectUrgent: () => gate.expect(),
    exec: async (text) => {
      await pool.query(text);
    },
    listen: (channel, onPayload) => events.listen(channel, onPayload),
    listening: () => events.up(),
    notifiesAtCommit: false,
    notify: async (channel, payloads, executor) => {
      if (payloads.length === 0) return;
      const query = sql`select pg_notify(${channel}, payload) from unnest(${sql.param(payloads)}::text[]) with ordinality as e(payload, n) order by n`;
      if (executor) await executor.execute(query);
      else await db.execute(query);
    },
    close: async () => {
      await events.close();
      await pool.end();
    },
  };
}

/** Runs raw SQL and returns its rows, the same on both drivers (both answer `{ rows }`). */
export async function queryRows<T>(executor: Executor, query: import('drizzle-orm').SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as { rows: T[] };
  return result.rows;
}

import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { statementOf } from './statement-text.ts';
import { commandsOn, pgliteTransactionOf, WRAPPED_TRANSACTION, type PgliteTransactionClient } from './commands.ts';
import { literal } from './sql-literal.ts';

/**
 * Statements planned once per database session instead of at every execution. The ingestion
 * statements are CTEs over tables with many indexes and row-level security: planning them took
 * about as long as running them for a group of 50 messages (EXPLAIN ANALYZE on PGlite: 10 ms
 * planning, 12 ms execution).
 *
 * PostgreSQL: node-postgres named statements (parsed once per pooled connection); PostgreSQL plans
 * them custom for their first executions, then keeps a generic plan when it costs no more.
 * PGlite: `PREPARE` once in its one session, then `EXECUTE` with the values as literals (a utility
 * statement takes no bind parameters), quoted here, always with the generic plan (see pgliteRunner).
 */
export interface PreparedRunner {
  rows<T>(executor: Executor, query: SQL): Promise<T[]>;
}

/**
 * `tx` as an executor whose every `execute` runs prepared (for code written against queryRows).
 * Only `execute` is offered: nothing else of drizzle's API is prepared.
 */
export function preparedExecutor(runner: PreparedRunner, tx: Executor): Executor {
  return { execute: async (query: SQL) => ({ rows: await runner.rows(tx, query) }), [WRAPPED_TRANSACTION]: tx } as unknown as Executor;
}

/** `set local`: gone at the end of the transaction, so nothing else in the session plans differently. */
export const GENERIC_PLANS = 'set local plan_cache_mode = force_generic_plan';

/**
 * A statement's name: a hash of its text, so every connection (and the embedded database's one
 * session) names the same statement alike. Kept per text, since the same few statements run for every
 * request: the hash of a list page's text was a hash object, a digest and its hex for every page.
 */
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `vigil_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    // Bounded like the statements PGlite keeps prepared: a caller walking every shape cannot grow it.
    if (names.size >= NAMES_KEPT) names.clear();
    names.set(text, name);
  }
  return name;
}
const names = new Map<string, string>();
const NAMES_KEPT = 1_000;

/**
 * PGlite: one session, so one set of prepared names for the process (PREPARE outlives a rolled back
 * transaction), kept by the embedded database's thread (pglite-statements.mjs runPrepared): two
 * transactions are admitted at once there (client.ts), and only the thread that runs their
 * statements in order knows what the session holds when each one runs. Inside a transaction the
 * statement goes straight to PGlite's transaction: drizzle's own execute costs about 0.27 ms of CPU
 * per call around PGlite's 0.1 ms (measured in-process), as much as a small group's statement
 * itself. As `query` (not `exec`): one statement per call, whatever the literals hold (an `execute`
 * of a 10-row page measured 0.39-0.41 ms of CPU against 0.34-0.37 through `exec`, in-process, both
 * threads, interleaved: not worth the guarantee).
 *
 * Generic plans only (`plan_cache_mode`, set for each transaction that runs one of these): left to
 * choose, PostgreSQL kept planning the ingestion statements custom for small groups, at 2-4 ms of
 * planning each. CPU per group of single-device messages on the S data set, with and without
 * statistics (PGlite never analyzes by itself), generic vs left to choose: 1 message 2.7-3.4 vs
 * 5.6-5.9 ms, 10 messages 5.4 vs 5.3-6.3 ms, 40 messages 9.6-11.7 vs 9.1-12.4 ms (the statement by
 * statement path: 4.2-4.3 vs 6.9 ms for 1 message). The generic plans use the same indexes
 * (periods_device_idx, devices_external_key).
 */
export function pgliteRunner(cap = PGLITE_PREPARED_CAP): PreparedRunner {
  const generic = new WeakSet<PgliteTransactionClient>();
  return {
    async rows<T>(executor: Executor, query: SQL): Promise<T[]> {
      const raw = pgliteTransactionOf(executor);
      if (!raw?.queryPrepared) throw new Error('prepared statement: on PGlite it runs inside a transaction');
      const { sql: definition, params } = statementOf(query);
      const name = nameOf(definition);
      if (!generic.has(raw)) {
        await commandsOn(raw, GENERIC_PLANS);
        generic.add(raw);
      }
      const args = params.length ? `(${params.map(literal).join(', ')})` : '';
      return (await raw.queryPrepared<T>({ name, definition, cap }, `execute ${name}${args}`)).rows;
    },
  };
}

/**
 * At most this many statements stay prepared in PGlite's one session (the least recently used goes
 * first): list reads run prepared, and a list has a statement per shape (sort, filters, page size), so
 * without a bound a caller walking every combination would grow the embedded database's memory.
 */
const PGLITE_PREPARED_CAP = 500;

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** PostgreSQL: the transaction's pooled connection runs a named statement (node-postgres prepares it once per connection). */
export function postgresRunner(): PreparedRunner {
  return {
    async rows<T>(executor: Executor, query: SQL): Promise<T[]> {
      const { sql: text, params } = statementOf(query);
      // drizzle keeps the transaction's connection on its session (not part of its typed API).
      const client = (executor as unknown as { session?: { client?: PgQueryable } }).session?.client;
      if (!client) throw new Error('prepared statement: no connection on this executor');
      const result = await client.query({ name: nameOf(text), text, values: params });
      return result.rows as T[];
    },
  };
}

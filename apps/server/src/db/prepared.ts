import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/**
 * Statements planned once per database session instead of at every execution. The ingestion
 * statements are CTEs over tables with many indexes and row-level security: planning them took
 * about as long as running them for a group of 50 messages (EXPLAIN ANALYZE on PGlite: 10 ms
 * planning, 12 ms execution). A prepared statement is planned custom for its first executions, then
 * PostgreSQL keeps a generic plan when it costs no more. Forcing the generic plan
 * (`plan_cache_mode`) was measured slower for single-device groups on PGlite without statistics
 * (464 vs 882 messages per CPU-second): the default choice stays.
 *
 * PostgreSQL: node-postgres named statements (parsed once per pooled connection).
 * PGlite: `PREPARE` once in its one session, then `EXECUTE` with the values as literals
 * (a utility statement takes no bind parameters), quoted here.
 */
export interface PreparedRunner {
  rows<T>(executor: Executor, query: SQL): Promise<T[]>;
}

/**
 * `tx` as an executor whose every `execute` runs prepared (for code written against queryRows).
 * Only `execute` is offered: nothing else of drizzle's API is prepared.
 */
export function preparedExecutor(runner: PreparedRunner, tx: Executor): Executor {
  return { execute: async (query: SQL) => ({ rows: await runner.rows(tx, query) }) } as unknown as Executor;
}

const dialect = new PgDialect();
const nameOf = (text: string) => `vigil_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

/** A SQL string literal (standard_conforming_strings is on: only the quote is special). */
const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** An array element inside a PostgreSQL array literal: double quotes, with `"` and `\` escaped. */
function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  throw new Error(`prepared statement: unsupported array element ${typeof value}`);
}

/** A bind value written as a literal of unknown type: PostgreSQL coerces it to the prepared parameter's type. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return quoted(`{${value.map(element).join(',')}}`);
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('prepared statement: non-finite number');
    return quoted(String(value));
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return quoted(value);
  throw new Error(`prepared statement: unsupported value ${typeof value}`);
}

/** PGlite: one session, so one set of prepared names for the process (PREPARE outlives a rolled back transaction). */
export function pgliteRunner(): PreparedRunner {
  const prepared = new Set<string>();
  return {
    async rows<T>(executor: Executor, query: SQL): Promise<T[]> {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const name = nameOf(text);
      if (!prepared.has(name)) {
        await executor.execute(sql.raw(`prepare ${name} as ${text}`));
        prepared.add(name);
      }
      const args = params.length ? `(${params.map(literal).join(', ')})` : '';
      const result = (await executor.execute(sql.raw(`execute ${name}${args}`))) as unknown as { rows: T[] };
      return result.rows;
    },
  };
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** PostgreSQL: the transaction's pooled connection runs a named statement (node-postgres prepares it once per connection). */
export function postgresRunner(): PreparedRunner {
  return {
    async rows<T>(executor: Executor, query: SQL): Promise<T[]> {
      const { sql: text, params } = dialect.sqlToQuery(query);
      // drizzle keeps the transaction's connection on its session (not part of its typed API).
      const client = (executor as unknown as { session?: { client?: PgQueryable } }).session?.client;
      if (!client) throw new Error('prepared statement: no connection on this executor');
      const result = await client.query({ name: nameOf(text), text, values: params });
      return result.rows as T[];
    },
  };
}

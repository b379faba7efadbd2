import { sql } from 'drizzle-orm';
import type { Executor } from './client.ts';

/** The PGlite transaction under a drizzle transaction (not part of drizzle's typed API); undefined outside a transaction. */
export interface PgliteTransactionClient {
  query<T>(text: string): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
  /** Commands sent with the transaction's next statement (pglite-remote.ts). */
  defer?(text: string): void;
  /** A prepared statement's execution, prepared first when the session lacks it (pglite-remote.ts). */
  queryPrepared?<T>(prepare: { name: string; definition: string; cap: number }, text: string): Promise<{ rows: T[] }>;
}

/** On an executor that wraps a transaction (prepared.ts preparedExecutor): the transaction it runs in. */
export const WRAPPED_TRANSACTION = Symbol('vigil.wrappedTransaction');

export function pgliteTransactionOf(executor: Executor): PgliteTransactionClient | undefined {
  const wrapped = (executor as unknown as { [WRAPPED_TRANSACTION]?: Executor })[WRAPPED_TRANSACTION];
  if (wrapped) return pgliteTransactionOf(wrapped);
  const client = (executor as unknown as { session?: { client?: Partial<PgliteTransactionClient> & { transaction?: unknown } } }).session
    ?.client;
  // The database itself (not a transaction) has `transaction`: its calls must keep going through drizzle (and the priority gate).
  return client && typeof client.query === 'function' && typeof client.exec === 'function' && client.transaction === undefined
    ? (client as PgliteTransactionClient)
    : undefined;
}

/**
 * Commands without results (`set local ...; set local ...`), all in one round trip of the simple
 * query protocol: PGlite's `exec` on its transaction, node-postgres's query without values on
 * PostgreSQL. Cheaper than a select of set_config calls with bind parameters, which drizzle sends
 * as an extended-protocol statement parsed every time: on PGlite 0.43 ms for a transaction's scope
 * and plan settings that way, 0.02 ms this way (in-process, per transaction). The text must be
 * built from trusted values only: nothing is bound.
 */
export async function runCommands(executor: Executor, text: string): Promise<void> {
  const raw = pgliteTransactionOf(executor);
  if (raw) await commandsOn(raw, text);
  else await executor.execute(sql.raw(text));
}

/**
 * On PGlite's thread (pglite-remote.ts) the commands are not an exchange of their own: they go with
 * the transaction's next statement (its first one: together with BEGIN), and an error of theirs
 * fails that statement, or the COMMIT, with their SQLSTATE. Per list request that is one exchange
 * with PGlite instead of four (BEGIN, the scope's and the plan mode's commands, the statement).
 */
export async function commandsOn(raw: PgliteTransactionClient, text: string): Promise<void> {
  if (raw.defer) raw.defer(text);
  else await raw.exec(text);
}

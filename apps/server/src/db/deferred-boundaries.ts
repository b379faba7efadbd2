import type { PoolClient } from 'pg';
import { literal } from './sql-literal.ts';

/**
 * PostgreSQL: a transaction's boundaries sent with other statements instead of as round trips of
 * their own (docs/performance-choices.md "BEGIN with the transaction's first statement", "A read's COMMIT
 * with the next BEGIN").
 *
 * BEGIN. drizzle's node-postgres transaction() sends `begin` on its own, and every transaction of the
 * app then sends its scope's commands (`set local role ...; set local app.tenant_id ...`,
 * commands.ts runCommands) as a simple query: here the two go as one simple query (`begin;set
 * local ...`), whose statements PostgreSQL runs in order, the transaction begun by the first. Only
 * when the next statement is itself a simple query (no bind values, not named): otherwise BEGIN is
 * sent first, on its own, as before.
 *
 * COMMIT of a read-only transaction (`set transaction read only` among its first commands, as every
 * read's are: read-scope.ts). PostgreSQL refuses any write in it, so its COMMIT changes nothing but
 * ending it: it is answered at once and sent with the connection's next BEGIN (`commit;begin;set
 * local ...`), or on its own before any other statement, or after COMMIT_FLUSH_MS when nothing came
 * (so that an idle connection does not hold the read's snapshot and locks). A transaction that wrote
 * still waits for its COMMIT's answer, as durability asks.
 *
 * A read's first statement with its BEGIN. A read's commands (`set transaction read only; set local
 * ...`) are answered at once and held with its BEGIN; when its next call runs a named statement
 * this connection has prepared before, the whole read goes as one simple query: `[commit;]begin;set
 * ...;execute name('value', ...)` (its values as literals, sql-literal.ts; EXECUTE runs the same
 * prepared statement, with its generic plan). A list page was then one round trip instead of two.
 * Anything else sends the held commands first (one query), as before; a read that runs nothing
 * sends nothing.
 *
 * The caller of a combined query gets what its own statement would have answered (the boundaries'
 * results are dropped from the array a multi-statement query answers), and its failure as before:
 * an error in BEGIN or in the commands fails that query, and drizzle rolls the transaction back. The
 * first statement sent is then always inside drizzle's try/finally, which releases the client
 * however it fails.
 *
 * Installed once per pooled client (client.ts, at the pool's `connect`): the deferred COMMIT outlives
 * the checkout that deferred it, and every later call on the client, a transaction's or the pool's
 * own `query`, goes through here and sends it first.
 */
export function deferBoundaries(client: PoolClient): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with apply(client, ...)
  const query = client.query;
  const send = (...args: unknown[]) => (query as (...a: unknown[]) => unknown).apply(client, args);
  let pendingBegin = false;
  let pendingCommit = false;
  /** A read's first commands, held with its BEGIN (pendingBegin). */
  let heldCommands: string | undefined;
  let readOnly = false;
  /** Statements this connection has prepared (a named call that succeeded). */
  const prepared = new Set<string>();
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    const done = typeof values === 'function' ? values : callback;
    if (done !== undefined || !isPlainConfig(config)) return flushThen(() => send(config, values, callback), done);
    const simple = !(Array.isArray(values) && values.length > 0) && !config.name && !config.rows && config.queryMode !== 'extended';
    if (!pendingBegin && simple && config.text === 'begin') {
      pendingBegin = true;
      return Promise.resolve(answer('BEGIN'));
    }
    if (pendingBegin && heldCommands === undefined && simple && READ_ONLY.test(config.text)) {
      heldCommands = config.text;
      readOnly = true;
      return Promise.resolve(answer('SET'));
    }
    if (heldCommands !== undefined && simple && (config.text === 'commit' || config.text === 'rollback')) {
      // The read ran nothing: nothing of it was sent, nothing to end (a COMMIT held before it still is).
      pendingBegin = false;
      heldCommands = undefined;
      readOnly = false;
      return Promise.resolve(answer(config.text.toUpperCase()));
    }
    const execute = heldCommands !== undefined && config.name && prepared.has(config.name) ? executeOf(config, values) : undefined;
    if (execute !== undefined) {
      const text = [...heldBack(), execute].join(';');
      return (send({ text }) as Promise<unknown>).then((result) => (Array.isArray(result) ? (result.at(-1) as unknown) : result));
    }
    if (config.name && !config.rows) {
      const name = config.name;
      return flushThen(() =>
        (send(config, values) as Promise<unknown>).then((result) => {
          prepared.add(name);
          return result;
        }),
      );
    }
    if (pendingBegin && heldCommands === undefined && simple) {
      const boundaries = pendingCommit ? ['commit', 'begin'] : ['begin'];
      pendingBegin = pendingCommit = false;
      // Not a read's: those commands were held above.
      readOnly = false;
      return (send({ ...config, text: `${boundaries.join(';')};${config.text}` }, values) as Promise<unknown>).then((result) =>
        withoutFirst(result, boundaries.length),
      );
    }
    if (readOnly && !pendingBegin && simple && config.text === 'commit') {
      readOnly = false;
      pendingCommit = true;
      setTimeout(flushCommit, COMMIT_FLUSH_MS).unref();
      return Promise.resolve(answer('COMMIT'));
    }
    if (simple && (config.text === 'commit' || config.text === 'rollback')) readOnly = false;
    return flushThen(() => send(config, values));
  }) as typeof client.query;

  /**
   * Sends what is held back (a read's COMMIT, a BEGIN: one query), its answer awaited, then the call.
   * When that fails (a lost connection) the call is not sent and fails with it: through its callback
   * when it has one (node-postgres answers those with no promise; the pool's own `query` always
   * passes one), else through the promise returned.
   */
  function flushThen(call: () => unknown, done?: unknown): unknown {
    const boundaries = heldBack();
    if (boundaries.length === 0) return call();
    const flushed = send({ text: boundaries.join(';') }) as Promise<unknown>;
    if (typeof done !== 'function') return flushed.then(call);
    flushed.then(call, (err: unknown) => (done as (err: unknown) => void)(err));
    return undefined;
  }

  /** What is held back, in the order it is sent (a read's COMMIT, a BEGIN and its commands), taken. */
  function heldBack(): string[] {
    const texts = [...(pendingCommit ? ['commit'] : []), ...(pendingBegin ? ['begin'] : []), ...(heldCommands ? [heldCommands] : [])];
    pendingBegin = pendingCommit = false;
    heldCommands = undefined;
    return texts;
  }

  /** Nothing came after a read's COMMIT: send it alone. A lost connection fails it; the pool drops such a client. */
  function flushCommit(): void {
    if (!pendingCommit) return;
    pendingCommit = false;
    (send({ text: 'commit' }) as Promise<unknown>).catch(() => {});
  }
}

/** How long a read's COMMIT waits for the connection's next BEGIN before it is sent alone. */
const COMMIT_FLUSH_MS = 5;

/** A transaction made read-only by its first commands (read-scope.ts). */
const READ_ONLY = /(^|;)\s*set transaction read only\s*(;|$)/i;

interface QueryConfig {
  text: string;
  name?: string;
  rows?: number;
  queryMode?: string;
  rowMode?: string;
  types?: unknown;
}

/** A query config object (not a string, not a Submittable such as a cursor). */
function isPlainConfig(config: unknown): config is QueryConfig {
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as { text?: unknown }).text === 'string' &&
    typeof (config as { submit?: unknown }).submit !== 'function'
  );
}

/** A prepared statement's name as this app names them (prepared.ts nameOf): safe to write into a text. */
const STATEMENT_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * `execute name('value', ...)` for a named call, or undefined when it cannot be written so (a value
 * no literal holds, such as a Date or a NUL; a row count, rows as arrays or type parsers of its own
 * asked for, which the combined query would not honour): the call then goes as it is.
 */
function executeOf(config: QueryConfig & { values?: unknown }, values: unknown): string | undefined {
  if (!STATEMENT_NAME.test(config.name!) || config.rows || config.rowMode !== undefined || config.types !== undefined) return undefined;
  const args = Array.isArray(values) ? values : (config.values ?? []);
  if (!Array.isArray(args)) return undefined;
  try {
    return args.length ? `execute ${config.name}(${args.map(literal).join(',')})` : `execute ${config.name}`;
  } catch {
    return undefined;
  }
}

/** What node-postgres answers a boundary sent alone. */
const answer = (command: string) => ({ command, rowCount: null, rows: [], fields: [] });

/** The combined query's answer as its caller's statement would have had it alone. */
function withoutFirst(result: unknown, count: number): unknown {
  if (!Array.isArray(result)) return result;
  const rest = result.slice(count);
  return rest.length === 1 ? rest[0] : rest;
}

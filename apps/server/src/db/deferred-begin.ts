import type { PoolClient } from 'pg';

/**
 * PostgreSQL: a transaction's BEGIN sent with its first statement instead of on its own. drizzle's
 * node-postgres transaction() sends `begin` as a round trip of its own, and every transaction of the
 * app then sends its scope's commands (`set local role ...; set local app.tenant_id ...`, commands.ts
 * runCommands) as a simple query too: here the two go as one simple query (`begin;set local ...`),
 * whose statements PostgreSQL runs in order, the transaction begun by the first. A list page at L was
 * six round trips (BEGIN, the commands, its statements, COMMIT) and is five (docs/performance.md
 * "BEGIN with the transaction's first statement").
 *
 * Only when the next statement is itself a simple query (no bind values, not named): otherwise BEGIN
 * is sent first, on its own, as before. The caller of the combined query gets what its own statement
 * would have answered (the BEGIN's result is dropped from the array a multi-statement query answers),
 * and its failure as before: an error in BEGIN or in the commands fails that query, and drizzle rolls
 * the transaction back. The first statement sent is then always inside drizzle's try/finally, which
 * releases the client however it fails.
 *
 * Installed on a client when it is checked out; the returned function, called at its release, puts
 * the client's own `query` back, so that wrappers do not pile up on a pooled client.
 */
export function deferBegin(client: PoolClient): () => void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with apply(client, ...)
  const query = client.query;
  const send = (...args: unknown[]) => (query as (...a: unknown[]) => unknown).apply(client, args);
  let pending = false;
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    if (callback !== undefined || typeof values === 'function' || !isPlainConfig(config))
      return flushThen(() => send(config, values, callback));
    const bound = Array.isArray(values) && values.length > 0;
    if (!pending && !bound && config.text === 'begin' && !config.name) {
      pending = true;
      return Promise.resolve({ command: 'BEGIN', rowCount: null, rows: [], fields: [] });
    }
    if (pending && !bound && !config.name && !config.rows && config.queryMode !== 'extended') {
      pending = false;
      return (send({ ...config, text: `begin;${config.text}` }, values) as Promise<unknown>).then(withoutBegin);
    }
    return flushThen(() => send(config, values));
  }) as typeof client.query;
  return () => {
    client.query = query;
  };

  /** Sends a deferred BEGIN on its own (its answer awaited), then the call. */
  function flushThen(call: () => unknown): unknown {
    if (!pending) return call();
    pending = false;
    return (send({ text: 'begin' }) as Promise<unknown>).then(call);
  }
}

interface QueryConfig {
  text: string;
  name?: string;
  rows?: number;
  queryMode?: string;
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

/** The combined query's answer as its caller's statement would have had it alone. */
function withoutBegin(result: unknown): unknown {
  if (!Array.isArray(result)) return result;
  const rest = result.slice(1);
  return rest.length === 1 ? rest[0] : rest;
}

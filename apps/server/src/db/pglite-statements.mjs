// Statements on the embedded database's thread: what a message asks of PGlite, run over its wire
// protocol in as few exchanges as it can (pglite-worker.mjs owns the instance and the messages;
// docs/performance-choices.md "The embedded database's protocol reader"). Plain JavaScript, as the worker.
import { parse, protocol } from '@electric-sql/pglite';
import { parseMessage, ProtocolReader, queryMessage } from './pglite-protocol.mjs';
import { resultsOf } from './pglite-results.mjs';

const { serialize } = protocol;

/** The thread's one PGlite instance, set once it is open (pglite-worker.mjs). */
let db;
export function useDatabase(instance) {
  db = instance;
}

/**
 * Identity parsers for the given type oids: drizzle's PGlite driver asks for the text of dates,
 * timestamps and intervals as PostgreSQL wrote it (functions cannot cross threads: the oids do).
 */
const parsersByKey = new Map();
function identityParsers(oids) {
  const key = oids.join(',');
  let parsers = parsersByKey.get(key);
  if (!parsers) {
    parsers = {};
    for (const oid of oids) parsers[oid] = (value) => value;
    parsersByKey.set(key, parsers);
  }
  return parsers;
}

export function queryOptions(message) {
  if (message.rowMode === undefined && message.parsers === undefined) return undefined;
  const options = {};
  if (message.rowMode !== undefined) options.rowMode = message.rowMode;
  if (message.parsers !== undefined) options.parsers = identityParsers(message.parsers);
  return options;
}

/** What a query answers, without PGlite's `blob` (never asked for here). */
export const queryResult = (result) => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows });
export const execResult = (results) => results.map(queryResult);

/**
 * The messages that never change, written once: PGlite's writer allocates a buffer for each message
 * it writes, about 4 % of this thread's CPU on a list page (perf), and a read's statement sent six
 * of these with it. `exchange` only copies them.
 */
export const SYNC = serialize.sync();
export const COMMIT = queryMessage('COMMIT');
export const ROLLBACK = queryMessage('ROLLBACK');
const BIND_NOTHING = serialize.bind({ values: [] });
const DESCRIBE_PORTAL = serialize.describe({ type: 'P' });
const DESCRIBE_STATEMENT = serialize.describe({ type: 'S' });
const EXECUTE = serialize.execute({});

/**
 * Protocol messages sent to PGlite as one exchange (one call into its wasm), under the session's lock;
 * the answer is read by pglite-protocol.mjs, not PGlite's parser. PGlite's own `query` makes six
 * exchanges of one message each (parse, describe, bind, describe, execute, sync) and `exec` two;
 * each costs its wasm entry and buffers (docs/performance-choices.md "Lists, every page different").
 * PostgreSQL handles the messages of one buffer in order as it would from a socket; the first error
 * is thrown (PGlite still runs the rest: after an error the extended protocol skips to the Sync, a
 * simple query ends its own statements), and so is `query`, as PGlite's makePGliteError names it.
 */
export async function exchange(parts, query) {
  const buffer = parts.length === 1 ? parts[0] : Buffer.concat(parts);
  const reader = new ProtocolReader();
  // The caller holds the session's lock (pglite-worker.mjs `locked`), which every other use of the
  // session takes too: no PGlite mutex around the exchange (what its mutexes cost: `grantLock` there).
  await db.execProtocolRawStream(buffer, { syncToFs: false, onRawData: (chunk) => reader.push(chunk) });
  if (reader.rest) throw new Error('pglite worker: the exchange ended inside a message');
  if (reader.error) {
    reader.error.query = query;
    throw reader.error;
  }
  return reader.messages;
}

/** The messages after the transaction's own commands (the first ReadyForQuery ends them). */
export function afterHead(messages, head) {
  if (!head) return messages;
  const end = messages.findIndex((m) => m.name === 'readyForQuery');
  return messages.slice(end + 1);
}

/** The messages before the commands sent after the statement (`tail`: its ReadyForQuery ends it). */
function beforeTail(messages, tail) {
  if (tail.length === 0) return messages;
  const end = messages.findIndex((m) => m.name === 'readyForQuery');
  return end < 0 ? messages : messages.slice(0, end + 1);
}

/**
 * A statement of the extended protocol, as PGlite's `query` runs it and with the same answer (its
 * parseResults, as pglite-results.mjs builds it, with PGlite's parsers and the caller's options), in
 * one exchange when it has no parameters (parse, bind, describe, execute, sync: nothing to learn
 * first) and two otherwise (the parameters' types come from the statement's description: PGlite
 * serializes each value by its type).
 */
async function runQuery(head, text, params, options, tail = []) {
  const before = head ? [queryMessage(head)] : [];
  const parsed = parseMessage(text);
  const run = [DESCRIBE_PORTAL, EXECUTE, SYNC, ...tail];
  let messages;
  if (!params || params.length === 0) {
    messages = afterHead(await exchange([...before, parsed, BIND_NOTHING, ...run], text), head);
  } else {
    let described;
    try {
      described = afterHead(await exchange([...before, parsed, DESCRIBE_STATEMENT], text), head);
    } catch (err) {
      await exchange([SYNC], text);
      throw err;
    }
    const types = parse.parseDescribeStatementResults(described);
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = db.serializers[types[i]];
      return serializer ? serializer(param) : param.toString();
    });
    messages = [...described, ...(await exchange([serialize.bind({ values }), ...run], text))];
  }
  return queryResult(resultsOf(beforeTail(messages, tail), db.parsers, options)[0]);
}

/** Statements of the simple protocol, as PGlite's `exec` (the query, then a sync) in one exchange. */
async function runExec(head, text, tail = []) {
  const before = head ? [queryMessage(head)] : [];
  const messages = afterHead(await exchange([...before, queryMessage(text), SYNC, ...tail], text), head);
  return execResult(resultsOf(beforeTail(messages, tail), db.parsers));
}

/**
 * The statements prepared in PGlite's one session, by name, the least recently used first
 * (prepared.ts pgliteRunner). Kept here, where the statements run in the session's order: the main
 * thread admits several transactions at once (client.ts), so what it knew when it sent a statement
 * could be changed by the transaction that runs before it.
 */
const preparedNames = new Set();

/**
 * `execute name(args)`, with `prepare name as definition` in an exchange of its own before it when
 * the session does not hold it yet (so a failure of the statement itself never leaves the set
 * unsure), and the least recently used names deallocated beyond `cap` (deallocate goes last: it
 * fails only when a name was deallocated behind this set's back).
 */
async function runPrepared(head, message, options, tail = []) {
  const { name, definition, cap } = message.prepare;
  if (preparedNames.delete(name)) {
    preparedNames.add(name);
    return rowsOnly(await runQuery(head, message.text, undefined, options, tail));
  }
  const parts = head ? [queryMessage(head)] : [];
  await exchange([...parts, queryMessage(`prepare ${name} as ${definition}`), SYNC], definition);
  const evicted = [];
  for (const old of preparedNames) {
    if (preparedNames.size - evicted.length < cap) break;
    evicted.push(old);
  }
  preparedNames.add(name);
  if (evicted.length) {
    for (const old of evicted) preparedNames.delete(old);
    await exchange([queryMessage(evicted.map((old) => `deallocate ${old}`).join('; ')), SYNC], 'deallocate');
  }
  return rowsOnly(await runQuery(undefined, message.text, undefined, options, tail));
}

/**
 * A prepared statement's answer without its `fields`: its one reader (prepared.ts) takes the rows,
 * and the fields were a third of the cost of copying a 10-row page between the threads (v8's
 * serializer, which postMessage uses: 45 -> 29 microseconds per page, both ends).
 */
const rowsOnly = (result) => ({ rows: result.rows, affectedRows: result.affectedRows });

/** Runs a statement message (`query`, `prepared`, `exec`) after `head`, with `tail` in its last exchange. */
export function runStatement(head, message, tail) {
  switch (message.op) {
    case 'query':
      return runQuery(head, message.text, message.params, queryOptions(message), tail);
    case 'prepared':
      return runPrepared(head, message, queryOptions(message), tail);
    case 'exec':
      return runExec(head, message.text, tail);
    default:
      throw new Error(`pglite worker: unknown statement op ${message.op}`);
  }
}

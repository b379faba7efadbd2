// The embedded database's thread: owns the one PGlite instance and runs what the main thread asks
// (pglite-remote.ts is the other end; the protocol is described there). Plain JavaScript so that it
// loads the same under `node --import tsx`, vitest and the bench, with no TypeScript loader here.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** PGlite's DatabaseError fields (pg-protocol) the main thread rebuilds: SQLSTATE, constraint, etc. */
const ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
  'query',
];

/** An error as plain data: structured clone keeps only an Error's message and stack. */
function errorData(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const data = { message: err.message, name: err.name };
  for (const field of ERROR_FIELDS) {
    const value = err[field];
    if (value !== undefined && (typeof value === 'string' || typeof value === 'number')) data[field] = value;
  }
  return data;
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

function queryOptions(message) {
  if (message.rowMode === undefined && message.parsers === undefined) return undefined;
  const options = {};
  if (message.rowMode !== undefined) options.rowMode = message.rowMode;
  if (message.parsers !== undefined) options.parsers = identityParsers(message.parsers);
  return options;
}

/** What a query answers, without PGlite's `blob` (never asked for here). */
const queryResult = (result) => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows });
const execResult = (results) => results.map(queryResult);

const reply = (id, result) => parentPort.postMessage({ id, result });
const fail = (id, err) => parentPort.postMessage({ id, error: errorData(err) });

/** Sentinel the main thread's rollback throws into PGlite's transaction callback. */
const ROLLED_BACK = Symbol('rolled back');

/**
 * Open transactions by id. Each runs inside PGlite's own transaction() (BEGIN, COMMIT or ROLLBACK
 * on error, its closed state, no file sync between its statements), held open until the main
 * thread says how it ends; `ready` settles once BEGIN has run, so statements sent right after the
 * begin message (without waiting for its answer) run in order.
 */
const transactions = new Map();

let db;

async function begin(id) {
  let begun;
  let failedToBegin;
  const entry = { tx: undefined, endId: undefined, end: undefined };
  entry.ready = new Promise((resolve, reject) => {
    begun = resolve;
    failedToBegin = reject;
  });
  // A transaction whose BEGIN failed: its statements fail with that error; nobody awaits `ready` itself.
  entry.ready.catch(() => {});
  transactions.set(id, entry);
  const ended = new Promise((resolve, reject) => {
    entry.end = { resolve, reject };
  });
  let opened = false;
  try {
    await db.transaction(async (tx) => {
      opened = true;
      entry.tx = tx;
      begun();
      return ended;
    });
    reply(entry.endId, null);
  } catch (err) {
    if (!opened) {
      failedToBegin(err);
      // Nobody waits for the begin itself: the end message (commit or rollback) gets the error,
      // whether it came before this failure was known (answered here) or comes later (end()).
      entry.beginError = err;
      if (entry.endId !== undefined) {
        transactions.delete(id);
        fail(entry.endId, err);
      }
      return;
    }
    if (err === ROLLED_BACK) reply(entry.endId, null);
    else fail(entry.endId, err);
  } finally {
    if (opened) transactions.delete(id);
  }
}

async function onTransaction(message) {
  const entry = transactions.get(message.tx);
  if (!entry) throw new Error('Transaction is closed');
  await entry.ready;
  const { tx } = entry;
  switch (message.op) {
    case 'query':
      return queryResult(await tx.query(message.text, message.params, queryOptions(message)));
    case 'exec':
      return execResult(await tx.exec(message.text));
    case 'txRollback':
      await tx.rollback();
      return null;
    default:
      throw new Error(`pglite worker: unknown transaction op ${message.op}`);
  }
}

/** The end of a transaction: its answer comes from begin() once PGlite has committed or rolled back. */
function end(message) {
  const entry = transactions.get(message.tx);
  if (!entry) return fail(message.id, new Error('Transaction is closed'));
  if (entry.beginError) {
    transactions.delete(message.tx);
    return fail(message.id, entry.beginError);
  }
  entry.endId = message.id;
  entry.ready.then(
    () => (message.op === 'commit' ? entry.end.resolve() : entry.end.reject(ROLLED_BACK)),
    () => {},
  );
}

async function handle(message) {
  switch (message.op) {
    case 'query':
      return queryResult(await db.query(message.text, message.params, queryOptions(message)));
    case 'exec':
      return execResult(await db.exec(message.text));
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`pglite worker: unknown op ${message.op}`);
  }
}

parentPort.on('message', (message) => {
  if (message.op === 'begin') {
    void begin(message.tx);
    return;
  }
  if (message.op === 'commit' || message.op === 'rollback') {
    end(message);
    return;
  }
  const work = message.tx === undefined ? handle(message) : onTransaction(message);
  work.then(
    (result) => reply(message.id, result),
    (err) => fail(message.id, err),
  );
});

try {
  const started = performance.now();
  db = await PGlite.create(workerData.location);
  parentPort.postMessage({ ready: true, ms: performance.now() - started });
} catch (err) {
  parentPort.postMessage({ ready: false, error: errorData(err) });
}

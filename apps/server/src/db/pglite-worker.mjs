// The embedded database's thread: owns the one PGlite instance and runs what the main thread asks
// (pglite-remote.ts is the other end; the protocol is described there): the messages and their
// batches, the transactions and the session's lock; the statements themselves run in
// pglite-statements.mjs. Plain JavaScript so that it loads the same under `node --import tsx`, vitest
// and the bench, with no TypeScript loader here.
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, TransactionAbortedError } from '@electric-sql/pglite';
import { ERROR_PROPERTIES, queryMessage } from './pglite-protocol.mjs';
import { sessionFormOf } from './pglite-read-settings.mjs';
import {
  afterHead,
  COMMIT,
  exchange,
  execResult,
  queryOptions,
  queryResult,
  ROLLBACK,
  runStatement,
  SYNC,
  useDatabase,
} from './pglite-statements.mjs';

/**
 * PostgreSQL's wasm compiled by the optimizing tier as soon as each function is first called, instead
 * of V8's default for WebAssembly (dynamic tiering: the baseline compiler's slower code
 * until a function has run for a while). PGlite's module has thousands of functions and a workload
 * calls many of them now and then: under dynamic tiering a one-device ingestion run still got faster
 * in its fourth run in a row, and moderately used paths kept baseline code. Measured
 * (docs/performance-choices.md "PostgreSQL's wasm compiled by the optimizing tier"): the database thread's
 * CPU per message and per list page fell, at the price of a second or two of compiling on V8's
 * background threads after start and about 30 MiB of code. Set before PGlite compiles its module
 * (PGlite.create below); V8's flags are the process's, and this is the only wasm of note in it.
 */
setFlagsFromString('--no-wasm-dynamic-tiering');

/** PGlite's DatabaseError fields the main thread rebuilds (SQLSTATE, constraint, ...) and the statement. */
const ERROR_FIELDS = [...ERROR_PROPERTIES, 'query'];

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
 * Answers ready during one turn of this thread's event loop, sent together at its end: the main
 * thread is woken once for all of them (pglite-remote.ts, "Messages travel in batches"). On one CPU,
 * statements queued behind the session's lock run one after the other in the same turn, so their
 * answers go together; on more, each goes as its statement ends (`handOver`).
 */
let outbox = [];
function flush() {
  if (outbox.length === 0) return;
  const batch = outbox;
  outbox = [];
  // The lanes' session time goes with the answers it includes (the lock is released before a unit's last answer is sent).
  const total = held.normal + held.urgent;
  if (total !== heldSent) {
    heldSent = total;
    batch.push({ held: [held.normal, held.urgent] });
  }
  parentPort.postMessage(batch.length === 1 ? batch[0] : batch);
}
function send(answer) {
  outbox.push(answer);
  if (outbox.length === 1) setImmediate(flush);
}
const reply = (id, result) => send({ id, result });
const fail = (id, err) => send({ id, error: errorData(err) });

let db;

/**
 * A statement of a read (`alone`: pglite-remote.ts readTransaction) as a transaction of its own, under
 * the session's lock, which is released as soon as the statement has run. At READ COMMITTED every
 * statement of a transaction sees what was committed before it began, so a read's statements see
 * what they saw inside one transaction; what changes is that PGlite's one session no longer waits
 * idle between them for the main thread, where other requests' work delays the next message.
 *
 * The read's commands (its scope's and plan mode's `set local`s) are kept on the session instead of
 * being sent with each statement inside BEGIN READ ONLY ... COMMIT: put in force once as session
 * settings, read-only included (pglite-read-settings.mjs), they stay while reads with the same
 * commands follow one another, and each of those statements goes alone, its own implicit
 * transaction. Anything else that uses the session puts it back to its defaults first
 * (`toSessionDefaults`). docs/performance-choices.md "A read's settings kept on the session".
 */
async function runAlone(message) {
  const release = await locked();
  try {
    const form = sessionFormOf(message.prelude);
    if (!form) {
      await toSessionDefaults();
      const head = message.prelude ? `BEGIN READ ONLY; ${message.prelude}` : 'BEGIN READ ONLY';
      return await runStatement(head, message, [COMMIT, SYNC]);
    }
    const wanted = message.prelude ?? '';
    if (sessionReads?.prelude === wanted) return await runStatement(undefined, message, []);
    const head = sessionReads ? `${sessionReads.reset}; ${form.set}` : form.set;
    // Until the head is known to have run, the session holds either the settings before or these.
    sessionReads = { prelude: undefined, reset: sessionReads ? `${sessionReads.reset}; ${form.reset}` : form.reset };
    const result = await runStatement(head, message, []);
    sessionReads = { prelude: wanted, reset: form.reset };
    return result;
  } finally {
    // A statement that failed in its last exchange ended its transaction; one that failed before
    // it (its PREPARE, or its description) may have left it open.
    if (db.isInTransaction()) await exchange([ROLLBACK, SYNC], 'ROLLBACK');
    release();
  }
}

/**
 * The read settings in force on the session (runAlone): `prelude`, the read commands they stand for
 * (undefined while unsure which of two), and `reset`, what puts the session back to its defaults.
 * Undefined when the session is at its defaults.
 */
let sessionReads;

/**
 * Puts the session back to its defaults (the owner's role, read-write, no tenant) before anything but
 * a read uses it, in an exchange of its own: sent inside a transaction's first message, the resets
 * would be rolled back with it.
 */
async function toSessionDefaults() {
  if (!sessionReads) return;
  await exchange([queryMessage(sessionReads.reset), SYNC], 'RESET');
  sessionReads = undefined;
}

/**
 * Open transactions by id. Each holds the session's lock (as PGlite's transaction() holds its own: no
 * statement from outside runs in between) until the main thread ends it. BEGIN is not an exchange
 * of its own: it goes with the transaction's first statement, together with the commands the main
 * thread queued before it (the tenant scope's and plan mode's `set local`s), as one simple query
 * ahead of that statement in the same exchange.
 */
const transactions = new Map();

/**
 * Who waits for the session's lock here, urgent transactions (the main thread's urgent lane:
 * webhook ingestion) ahead of the rest. The main thread admits up to eight units at once (client.ts),
 * so reads admitted before a write arrived would otherwise all run before it.
 */
const lockWaiters = { urgent: [], normal: [] };
let lockTaken = false;

/** The session's lock, once it is this caller's turn: call the answer to release it. */
function locked(urgent = false) {
  return new Promise((resolve) => {
    lockWaiters[urgent ? 'urgent' : 'normal'].push(resolve);
    if (!lockTaken) grantLock();
  });
}

/**
 * How long each lane has held PGlite's one session so far (ms, this thread's clock): the main thread's
 * priority gate earns and spends reads' credit from it (priority-gate.ts `sessionTime`). The time a
 * unit spends waiting here for the lock is not in it: a read queued behind two ingestion groups
 * holds the session for its own statement only.
 */
const held = { normal: 0, urgent: 0 };
let heldSent = 0;

/**
 * The lock to the next waiter, urgent first; it is given back to this queue when released.
 *
 * The lock is this thread's own, not PGlite's transaction mutex: PGlite's mutexes (async-mutex,
 * bundled compiled to generators) keep what each call allocates alive through the next young
 * collection, so on this thread, where a lock and an exchange were taken per statement, about 1.8
 * MB survived every scavenge and was promoted at the next: a full collection every second or two
 * under a list load, each stopping every request in flight (docs/performance-choices.md "The database
 * thread's garbage"). PGlite's own `query`, `exec` and `close` (`handle` below) take this lock
 * too, so while a holder runs nothing else uses the session, and its exchanges need no mutex of
 * PGlite's either (pglite-statements.mjs `exchange`).
 */
function grantLock() {
  const lane = lockWaiters.urgent.length > 0 ? 'urgent' : 'normal';
  const next = lockWaiters[lane].shift();
  lockTaken = next !== undefined;
  if (!next) return;
  let released = false;
  const granted = performance.now();
  next(() => {
    if (released) return;
    released = true;
    held[lane] += performance.now() - granted;
    if (workerData.answerEach) setImmediate(handOver);
    else grantLock();
  });
}

/**
 * With `answerEach` (pglite-remote.ts open: the process may run on more than one CPU), the lock
 * changes hands on the next turn of this thread's event loop: by then the holder's answer is in the
 * outbox (it is queued after the lock is released), and it leaves before the next statement runs,
 * so the main thread handles it meanwhile instead of waiting for every statement queued behind the
 * lock. Messages that arrived meanwhile are seen before the choice, as on the main thread's gate.
 */
function handOver() {
  flush();
  grantLock();
}

function opened(id, urgent) {
  const entry = { closed: false, begun: false, release: undefined };
  entry.ready = locked(urgent).then((release) => {
    entry.release = release;
  });
  transactions.set(id, entry);
  return entry;
}

/** The simple query that goes before a statement: BEGIN on the first, and the queued commands. */
function headOf(entry, message) {
  const parts = [];
  if (!entry.begun) {
    parts.push('BEGIN');
    entry.begun = true;
  }
  if (message.prelude) parts.push(message.prelude);
  return parts.length ? parts.join('; ') : undefined;
}

async function onTransaction(message) {
  const entry = message.begin ? opened(message.tx, message.urgent === true) : transactions.get(message.tx);
  const ending = message.op === 'commit' || message.op === 'rollback';
  // After the transaction's own rollback only its end is still taken (it releases the lock).
  if (!entry || (entry.closed && !ending)) throw new Error('Transaction is closed');
  await entry.ready;
  switch (message.op) {
    case 'query':
    case 'prepared':
    case 'exec':
      if (!entry.begun) await toSessionDefaults();
      return runStatement(headOf(entry, message), message, []);
    case 'txRollback':
      // Queued commands would only be rolled back: left out.
      entry.closed = true;
      if (entry.begun) await exchange([ROLLBACK, SYNC], 'ROLLBACK');
      return null;
    case 'commit':
    case 'rollback':
      return end(message, entry);
    default:
      throw new Error(`pglite worker: unknown transaction op ${message.op}`);
  }
}

/**
 * The end of a transaction: COMMIT (with any commands still queued ahead of it, in the same
 * exchange) or ROLLBACK; then its lock is released. A COMMIT that PostgreSQL answers with ROLLBACK
 * (the transaction had failed) fails as PGlite's transaction() fails it (TransactionAbortedError,
 * SQLSTATE 25P02).
 */
async function end(message, entry) {
  try {
    if (entry.closed) return null;
    entry.closed = true;
    if (message.op === 'rollback') {
      if (entry.begun) await exchange([ROLLBACK, SYNC], 'ROLLBACK');
      return null;
    }
    if (message.prelude && !entry.begun) await toSessionDefaults();
    const head = message.prelude ? headOf(entry, message) : undefined;
    if (!entry.begun) return null;
    const before = head ? [queryMessage(head)] : [];
    let messages;
    try {
      messages = afterHead(await exchange([...before, COMMIT, SYNC], 'COMMIT'), head);
    } finally {
      // The queued commands failed (their error is thrown) and the COMMIT ended the transaction as
      // a rollback; nothing is left open either way, whatever went wrong.
      if (db.isInTransaction()) await exchange([ROLLBACK, SYNC], 'ROLLBACK');
    }
    const done = messages.findLast((m) => m.name === 'commandComplete');
    if (done?.text === 'ROLLBACK') throw Object.assign(new TransactionAbortedError(), { query: 'COMMIT' });
    return null;
  } finally {
    transactions.delete(message.tx);
    entry.release();
  }
}

/** PGlite's own calls (statements outside a transaction, and `close`), under the session's lock. */
async function handle(message) {
  const release = await locked();
  try {
    await toSessionDefaults();
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
  } finally {
    release();
  }
}

/** Set by `close`: what arrives after it (in the same batch, or later) fails as it would once the thread has ended. */
let closing = false;

function onMessage(message) {
  if (closing) return fail(message.id, Object.assign(new Error('the embedded database is closed'), { code: '57P02' }));
  if (message.op === 'close') closing = true;
  const work = message.alone ? runAlone(message) : message.tx === undefined ? handle(message) : onTransaction(message);
  work.then(
    (result) => reply(message.id, result),
    (err) => fail(message.id, err),
  );
}

// A batch of messages (an array) or one.
parentPort.on('message', (messages) => {
  if (Array.isArray(messages)) for (const message of messages) onMessage(message);
  else onMessage(messages);
});

try {
  const started = performance.now();
  db = await PGlite.create(workerData.location);
  useDatabase(db);
  parentPort.postMessage({ ready: true, ms: performance.now() - started });
} catch (err) {
  parentPort.postMessage({ ready: false, error: errorData(err) });
}

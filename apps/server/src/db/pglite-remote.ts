import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * The embedded database on a thread of its own (pglite-worker.mjs owns the PGlite instance), seen
 * from the main thread through an object of PGlite's shape (`query`, `exec`, `transaction(cb)` with
 * a transaction's `query`, `exec`, `rollback`, `closed`), so drizzle's PGlite driver, the priority
 * gate, the in-process notifications, prepared statements and commands (client.ts, commands.ts,
 * prepared.ts) work on it as they did on PGlite itself.
 *
 * Why: a PGlite statement is synchronous WebAssembly; in the server's own thread every statement
 * held the event loop, so HTTP, JSON and signature checks waited for the database and the database
 * for them, one core used on a two-core machine (docs/performance-choices.md "Embedded database on a
 * worker thread").
 *
 * Protocol (structured clone over the worker's port): the main thread sends `{ id, op, ... }`:
 * `query` (text, params, rowMode, and the oids drizzle asks identity parsers for: functions do not
 * cross threads), `exec` (text), `close`; inside a transaction (`tx`; its first message carries
 * `urgent` when it goes ahead of what waits for the session's lock) also `prepared` (a prepared
 * statement's execution, with what to prepare first when the session lacks it), `commit`/`rollback`
 * (its end), `txRollback` (the transaction's own rollback). A transaction has no message of its own to
 * begin: its first message carries `begin`, and any message may carry `prelude`, the commands queued
 * by `defer` since the last one; the worker sends BEGIN and the prelude to PGlite in the same
 * exchange as the statement (pglite-worker.mjs). The worker answers `{ id, result }` or
 * `{ id, error }` with the fields of PGlite's DatabaseError (SQLSTATE `code`, `constraint`,
 * `detail`...), rebuilt here as an Error; a failed BEGIN or prelude fails the statement it came with.
 * A read's statement (readTransaction) carries `alone` and every command of its read as `prelude`,
 * and no `tx`: the worker runs it as a read-only transaction of its own. A batch of answers may also
 * carry `{ held: [normal, urgent] }`, how long each lane has held PGlite's session so far
 * (`sessionTime`, which the priority gate shares the session by).
 *
 * Messages travel in batches: what this thread asks during one turn of its event loop goes as one
 * message (an array when there are several), and the worker answers the same way (on one CPU; on
 * more, each answer as its statement ends: `open`), so each crossing wakes the other thread once for
 * all of them. A wake-up is what a message costs most: when both
 * threads share a core, a woken thread takes it from the one that woke it (docs/performance-choices.md
 * "Messages between the threads in batches").
 */

/** PGlite's query options as drizzle passes them: the row mode and identity parsers by type oid. */
export interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

export interface QueryResult<T> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** A prepared statement's answer: its rows (pglite-statements.mjs leaves the fields out; nothing reads them). */
export type PreparedResult<T> = Omit<QueryResult<T>, 'fields'>;

export interface RemoteTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  exec(text: string): Promise<QueryResult<unknown>[]>;
  /**
   * `text` (`execute name(...)`) after PREPARE of `definition` as `name` when the session does not
   * hold it yet, at most `cap` names kept (the worker keeps the session's names: prepared.ts).
   */
  queryPrepared<T>(prepare: { name: string; definition: string; cap: number }, text: string): Promise<PreparedResult<T>>;
  /**
   * Commands without results (`set local ...`), sent with the transaction's next statement or its
   * COMMIT, in the same exchange: their error, if any, is that statement's or the COMMIT's (it
   * carries their SQLSTATE; the transaction then ends rolled back).
   */
  defer(text: string): void;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/**
 * A transaction as built here: `closed` is a field its owner sets, not a getter over a closure. An
 * object literal's getter made each transaction's object a hidden class of its own, kept where V8
 * keeps long-lived objects, which held the transaction's closures past every young-generation
 * collection (docs/performance-choices.md "Per-request hidden classes").
 */
type ClosableTransaction = Omit<RemoteTransaction, 'closed'> & { closed: boolean };

interface ErrorData {
  message: string;
  name?: string;
  code?: string;
  [field: string]: unknown;
}

type Reply = { id: number; result: unknown; error?: undefined } | { id: number; error: ErrorData };
/** The lanes' time holding PGlite's session so far (pglite-worker.mjs `held`): [normal, urgent] ms. */
type HeldTime = { held: [number, number]; id?: undefined };

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** SQLSTATE crash_shutdown: connection-errors.ts answers requests that meet it 503 UNAVAILABLE, like a lost PostgreSQL. */
const STOPPED_CODE = '57P02';

function rebuilt(data: ErrorData): Error {
  const { message, name, ...fields } = data;
  const err = Object.assign(new Error(message), fields);
  if (name && name !== 'Error') err.name = name;
  return err;
}

/** The parsers' oids as sent (drizzle passes the same options object for every call of a statement). */
const oidsOf = new WeakMap<object, number[]>();
function parserOids(parsers: object): number[] {
  let oids = oidsOf.get(parsers);
  if (!oids) oidsOf.set(parsers, (oids = Object.keys(parsers).map(Number)));
  return oids;
}

export class PgliteRemote {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stopped: Error | undefined;
  private closing: Promise<void> | undefined;
  /** Messages asked during this turn of the event loop, sent together at its end (flush). */
  private outbox: Record<string, unknown>[] = [];

  private constructor(private readonly worker: Worker) {
    worker.on('message', (replies: Reply | HeldTime | (Reply | HeldTime)[]) => {
      if (Array.isArray(replies)) for (const reply of replies) this.settle(reply);
      else this.settle(replies);
    });
    // The thread crashed (an exception it did not catch, out of memory) or ended: every call waiting
    // for it fails, and so does every later one; /readyz then answers 503 (its ping fails).
    worker.on('error', (err) => this.stop(`the embedded database's thread failed: ${err.message}`));
    worker.on('exit', (code) => this.stop(`the embedded database's thread ended (exit code ${code})`));
  }

  /**
   * Starts the thread and opens PGlite at `location` (a directory, or `memory://`).
   *
   * `answerEach`: whether the database's thread sends each unit's answer as soon as its statement has
   * run (the session's lock changes hands on the thread's next turn, after the answer has left)
   * instead of with the rest of its turn's. Where this process may run on more than one CPU, the
   * HTTP thread then handles one answer while the database runs the next statement; on one CPU
   * the threads cannot overlap, and a message per answer only costs more wake-ups
   * (docs/performance-choices.md "Answers as each statement ends, on more than one CPU").
   */
  static async open(location: string, opts: { answerEach?: boolean } = {}): Promise<PgliteRemote> {
    const answerEach = opts.answerEach ?? availableParallelism() > 1;
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { location, answerEach } });
    const ready = await new Promise<{ ready: boolean; error?: ErrorData }>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      const onExit = (code: number) => reject(new Error(`the embedded database's thread ended during start-up (exit code ${code})`));
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.once('message', (message: { ready: boolean; error?: ErrorData }) => {
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(message);
      });
    });
    if (!ready.ready) {
      await worker.terminate();
      throw rebuilt(ready.error ?? { message: 'PGlite did not open' });
    }
    // Referenced only while a call waits for its answer (call()): an idle database, as PGlite in
    // this thread was, does not keep the process alive.
    worker.unref();
    return new PgliteRemote(worker);
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
    return this.call({ op: 'query', text, params, ...optionsOf(options) }) as Promise<QueryResult<T>>;
  }

  exec(text: string): Promise<QueryResult<unknown>[]> {
    return this.call({ op: 'exec', text }) as Promise<QueryResult<unknown>[]>;
  }

  /**
   * PGlite's transaction(): BEGIN, the callback's statements, COMMIT; ROLLBACK when the callback
   * throws (the error is rethrown). Nothing is sent until the callback's first statement: BEGIN
   * and the commands queued with `defer` travel with it (pglite-worker.mjs runs them in the same
   * exchange with PGlite, ahead of the statement). `urgent` (the gate's urgent lane, client.ts): the
   * worker gives it the session's lock before the reads and transactions already waiting there.
   */
  async transaction<T>(callback: (tx: RemoteTransaction) => Promise<T>, urgent = false): Promise<T> {
    const tx = this.nextId++;
    let begun = false;
    let queued: string[] = [];
    const open = () => {
      if (transaction.closed) throw new Error('Transaction is closed');
    };
    /** What goes with the next message: the transaction's opening on the first, the queued commands. */
    const head = () => {
      const fields = {
        tx,
        begin: begun ? undefined : true,
        urgent: !begun && urgent ? true : undefined,
        prelude: queued.length ? queued.join('; ') : undefined,
      };
      begun = true;
      queued = [];
      return fields;
    };
    const transaction: ClosableTransaction = {
      ...this.statements(() => {
        open();
        return head();
      }),
      defer: (text: string) => {
        open();
        queued.push(text);
      },
      rollback: async () => {
        open();
        // Queued commands would only be rolled back: dropped.
        queued = [];
        if (begun) await this.call({ op: 'txRollback', tx });
        transaction.closed = true;
      },
      closed: false,
    };
    let result: T;
    try {
      result = await callback(transaction);
    } catch (err) {
      if (!transaction.closed) {
        transaction.closed = true;
        // Queued commands are left out (they would only be rolled back), and so is a transaction never begun.
        if (begun) await this.call({ op: 'rollback', tx });
      } else if (begun) {
        await this.call({ op: 'commit', tx });
      }
      throw err;
    }
    // After the transaction's own rollback() this only ends the worker's transaction (nothing to commit).
    // A transaction with no statement still makes its round trip: its answer says the database is there.
    transaction.closed = true;
    await this.call({ op: 'commit', ...head() });
    return result;
  }

  /**
   * A read's transaction (db/read-scope.ts): the same calls as transaction(), but each statement goes
   * alone, as a read-only transaction of its own with every command deferred so far (pglite-worker.mjs
   * runAlone): one message per statement, nothing to end, and PGlite's one session is never held
   * while this thread prepares the next statement. What each statement sees is what it saw in one
   * transaction at READ COMMITTED: what was committed before it began.
   */
  async readTransaction<T>(callback: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    if (this.stopped) throw this.stopped;
    const settings: string[] = [];
    const open = () => {
      if (transaction.closed) throw new Error('Transaction is closed');
    };
    const transaction: ClosableTransaction = {
      ...this.statements(() => {
        open();
        return { alone: true, prelude: settings.length ? settings.join('; ') : undefined };
      }),
      defer: (text: string) => {
        open();
        settings.push(text);
      },
      rollback: () => {
        open();
        transaction.closed = true;
        return Promise.resolve();
      },
      closed: false,
    };
    try {
      return await callback(transaction);
    } finally {
      transaction.closed = true;
    }
  }

  /** A transaction's statement calls; `fields` checks it is open and answers what goes with the message. */
  private statements(fields: () => Record<string, unknown>): Pick<RemoteTransaction, 'query' | 'queryPrepared' | 'exec'> {
    return {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) =>
        (await this.call({ op: 'query', ...fields(), text, params, ...optionsOf(options) })) as QueryResult<R>,
      queryPrepared: async <R>(prepare: { name: string; definition: string; cap: number }, text: string) =>
        (await this.call({ op: 'prepared', ...fields(), text, prepare })) as PreparedResult<R>,
      exec: async (text: string) => (await this.call({ op: 'exec', ...fields(), text })) as QueryResult<unknown>[],
    };
  }

  /** Closes PGlite in its thread, then ends the thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.stopped) {
        try {
          await this.call({ op: 'close' });
        } finally {
          this.stop('the embedded database is closed');
          await this.worker.terminate();
        }
      }
    })();
    return this.closing;
  }

  private call(message: Record<string, unknown>): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.outbox.push({ ...message, id });
      if (this.outbox.length === 1) setImmediate(this.flush);
    });
  }

  /** Sends the turn's messages in one (the calls of a stopped thread were already failed by stop()). */
  private readonly flush = () => {
    const batch = this.outbox;
    this.outbox = [];
    if (this.stopped) return;
    this.worker.postMessage(batch.length === 1 ? batch[0] : batch);
  };

  /** The lanes' session time as of the last answers received (the gate's `sessionTime`). */
  readonly sessionTime: { normal: number; urgent: number } = { normal: 0, urgent: 0 };

  private settle(reply: Reply | HeldTime): void {
    if (reply.id === undefined) {
      [this.sessionTime.normal, this.sessionTime.urgent] = reply.held;
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.error) pending.reject(rebuilt(reply.error));
    else pending.resolve(reply.result);
  }

  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = Object.assign(new Error(reason), { code: STOPPED_CODE });
    for (const pending of this.pending.values()) pending.reject(this.stopped);
    this.pending.clear();
    this.worker.unref();
  }
}

function optionsOf(options: QueryOptions | undefined): { rowMode?: string; parsers?: number[] } {
  if (!options) return {};
  return { rowMode: options.rowMode, parsers: options.parsers && parserOids(options.parsers) };
}

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
 * for them, one core used on a two-core machine (docs/performance.md "Embedded database on a
 * worker thread").
 *
 * Protocol (structured clone over the worker's port): the main thread sends `{ id, op, ... }`:
 * `query` (text, params, rowMode, and the oids drizzle asks identity parsers for: functions do not
 * cross threads), `exec` (text), `begin`/`commit`/`rollback` (transaction `tx`), `txRollback` (the
 * transaction's own rollback), `close`; statements inside a transaction carry its `tx`. The worker
 * answers `{ id, result }` or `{ id, error }` with the fields of PGlite's DatabaseError (SQLSTATE
 * `code`, `constraint`, `detail`...), rebuilt here as an Error. `begin` has no answer of its own: its
 * first statement is sent at once and runs after it (messages are handled in order), which saves a
 * round trip per transaction; a failed BEGIN fails its statements and its end.
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

export interface RemoteTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  exec(text: string): Promise<QueryResult<unknown>[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

interface ErrorData {
  message: string;
  name?: string;
  code?: string;
  [field: string]: unknown;
}

type Reply = { id: number; result: unknown; error?: undefined } | { id: number; error: ErrorData };

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

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => this.settle(reply));
    // The thread crashed (an exception it did not catch, out of memory) or ended: every call waiting
    // for it fails, and so does every later one; /readyz then answers 503 (its ping fails).
    worker.on('error', (err) => this.stop(`the embedded database's thread failed: ${err.message}`));
    worker.on('exit', (code) => this.stop(`the embedded database's thread ended (exit code ${code})`));
  }

  /** Starts the thread and opens PGlite at `location` (a directory, or `memory://`). */
  static async open(location: string): Promise<PgliteRemote> {
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { location } });
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
   * throws (the error is rethrown). The worker runs it in PGlite's own transaction().
   */
  async transaction<T>(callback: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const tx = this.nextId++;
    this.send({ op: 'begin', tx });
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const transaction: RemoteTransaction = {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        open();
        return (await this.call({ op: 'query', tx, text, params, ...optionsOf(options) })) as QueryResult<R>;
      },
      exec: async (text: string) => {
        open();
        return (await this.call({ op: 'exec', tx, text })) as QueryResult<unknown>[];
      },
      rollback: async () => {
        open();
        await this.call({ op: 'txRollback', tx });
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(transaction);
    } catch (err) {
      if (!closed) {
        closed = true;
        await this.call({ op: 'rollback', tx });
      } else {
        await this.call({ op: 'commit', tx });
      }
      throw err;
    }
    // After the transaction's own rollback() this only ends the worker's PGlite transaction (nothing to commit).
    closed = true;
    await this.call({ op: 'commit', tx });
    return result;
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

  private send(message: Record<string, unknown>): void {
    if (this.stopped) return;
    this.worker.postMessage(message);
  }

  private call(message: Record<string, unknown>): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private settle(reply: Reply): void {
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

/**
 * Identical reads in flight share one database round, without ever answering older data than a
 * request would have read on its own.
 *
 * Why: a monitoring console is read by many screens at once that ask the same thing (wall displays,
 * a team reloading the same list, Pulse reloads). On PGlite every read runs on the one session, one
 * after another, so 50 identical requests cost 50 planned and executed statements in a queue.
 *
 * The rule that keeps answers fresh: a request never joins a round that has already started (its
 * snapshot may predate the request, and so miss a write the caller has just seen committed). It
 * joins the round that has not started yet, which starts when the running one ends, so every
 * answer comes from a snapshot taken after its request arrived, as if the request had waited its
 * turn in the queue. At most one round runs and one waits per key; the waiting one serves everyone
 * who arrives before it starts.
 *
 * The key must hold everything the answer depends on (route.ts: method, URL and the verified
 * caller); the work must be a pure read whose result is not mutated by its receivers.
 */
interface Round<T> {
  work: () => Promise<T>;
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

interface Slot<T> {
  running: boolean;
  /** The round that has not started yet, which newcomers join. */
  next?: Round<T>;
}

export class SharedReads<T = unknown> {
  private readonly slots = new Map<string, Slot<T>>();

  /** Joins the key's round that has not started yet, or opens one. */
  run(key: string, work: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { running: false };
      this.slots.set(key, slot);
    }
    if (!slot.next) {
      slot.next = pendingRound(work);
      if (!slot.running) this.schedule(key, slot);
    }
    return slot.next.promise;
  }

  /** Keys with a round running or waiting (for tests: nothing is kept once the rounds are over). */
  get size(): number {
    return this.slots.size;
  }

  /**
   * A round starts on the event loop's next turn, not at once: requests for the same key that
   * arrived meanwhile (their token checks finish on the thread pool) reach the round only if it
   * waits one turn. (It mattered most while PGlite ran on this thread and a read never yielded to
   * I/O; PGlite now has its own thread, db/pglite-remote.ts.)
   */
  private schedule(key: string, slot: Slot<T>): void {
    setImmediate(() => this.begin(key, slot));
  }

  private begin(key: string, slot: Slot<T>): void {
    const round = slot.next!;
    slot.next = undefined;
    slot.running = true;
    // A synchronous throw becomes this round's rejection.
    const running = (async () => round.work())();
    running.then(round.resolve, round.reject);
    const after = () => {
      slot.running = false;
      if (slot.next) this.schedule(key, slot);
      else this.slots.delete(key);
    };
    running.then(after, after);
  }
}

function pendingRound<T>(work: () => Promise<T>): Round<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { work, promise, resolve, reject };
}

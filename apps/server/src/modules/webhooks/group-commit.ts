/**
 * Group commit, per process: a message that arrives while a transaction is in flight waits in
 * a queue and is applied with the others that waited, in the next transaction. Each caller's
 * promise settles only after its group committed, so an answer never precedes durability.
 * Under load, one transaction (its BEGIN, statements, COMMIT) carries many messages; alone, a
 * message starts its transaction at once (no waiting for company).
 *
 * A heavy queue is shared out: on PostgreSQL several groups run at once, each in its own backend,
 * so a queue holding at least twice `splitWeight` devices becomes up to `maxInFlight` groups of at
 * least `splitWeight` devices each (one group took the whole queue before, and its statements kept
 * one backend, one CPU, busy while the other idled: batches of 100 at 10 connections, in process,
 * 3,300 -> 6,200 events/s). A light queue (one-device messages) stays one group: there the fixed cost of each
 * group, not the database, is what counts (1,020 -> 900 msg/s when split).
 *
 * Each message stays all or nothing: when a group's transaction fails, every message of it is
 * retried in a transaction of its own, so one message's failure (or a deadlock between two
 * groups on PostgreSQL) fails that message only.
 */
export interface Groupable {
  /** Messages with the same key never share a group (a redelivered id must see the first one committed). */
  key: string;
  /** Cost counted against `maxWeight` (devices of the message). */
  weight: number;
  /** A message that must be applied in a group of its own. */
  alone: boolean;
}

export interface GroupLimits {
  maxMessages: number;
  maxWeight: number;
  /** Groups in flight at once: 1 on PGlite (one session), a few on PostgreSQL. */
  maxInFlight: number;
  /** A queue is split among the free slots into groups of at least this weight (none: never split). */
  splitWeight?: number;
}

interface Waiting<M, R> {
  item: M;
  resolve(result: R): void;
  reject(err: unknown): void;
}

export class GroupCommitter<M extends Groupable, R> {
  private queue: Waiting<M, R>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** Applies and commits the group in ONE transaction; one result per message, in order. */
    private readonly commit: (group: M[]) => Promise<R[]>,
    private readonly limits: GroupLimits,
  ) {}

  submit(item: M): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Groups start on the next turn of the event loop, never inside the caller's turn: PGlite runs
   * a whole transaction in promise continuations (synchronous wasm under each await), which would
   * otherwise keep every other request from reaching the queue until it commits, and so every
   * group would hold one message. One turn lets the requests already read join the group.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const group = this.take();
      this.inFlight++;
      void this.run(group).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  /**
   * The oldest waiting message and whatever fits after it, up to this group's share of a heavy
   * queue (splitWeight); the rest stays queued in order.
   */
  private take(): Waiting<M, R>[] {
    const first = this.queue[0];
    if (first.item.alone) return this.queue.splice(0, 1);
    const maxWeight = Math.min(this.limits.maxWeight, this.shareOfQueue());
    const group: Waiting<M, R>[] = [];
    const keys = new Set<string>();
    const rest: Waiting<M, R>[] = [];
    let weight = 0;
    for (const entry of this.queue) {
      const fits =
        group.length === 0 ||
        (group.length < this.limits.maxMessages &&
          weight + entry.item.weight <= maxWeight &&
          !entry.item.alone &&
          !keys.has(entry.item.key));
      if (fits) {
        group.push(entry);
        keys.add(entry.item.key);
        weight += entry.item.weight;
      } else rest.push(entry);
      if (group.length >= this.limits.maxMessages) {
        rest.push(...this.queue.slice(group.length + rest.length));
        break;
      }
    }
    this.queue = rest;
    return group;
  }

  /** The weight of one group when the queue is shared among the free slots (Infinity: not shared). */
  private shareOfQueue(): number {
    const { splitWeight } = this.limits;
    if (!splitWeight) return Infinity;
    const queued = this.queue.reduce((sum, w) => sum + w.item.weight, 0);
    const parts = Math.min(this.limits.maxInFlight - this.inFlight, Math.floor(queued / splitWeight));
    return parts > 1 ? Math.ceil(queued / parts) : Infinity;
  }

  private async run(group: Waiting<M, R>[]): Promise<void> {
    try {
      const results = await this.commit(group.map((w) => w.item));
      group.forEach((w, i) => w.resolve(results[i]));
    } catch (err) {
      if (group.length === 1) return group[0].reject(err);
      for (const w of group) {
        try {
          const [result] = await this.commit([w.item]);
          w.resolve(result);
        } catch (alone) {
          w.reject(alone);
        }
      }
    }
  }
}

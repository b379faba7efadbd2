/**
 * Admission in front of the database's connections, in two lanes: `urgent` (webhook ingestion,
 * whose answers wait for their commit) before `normal` (everything else, dashboard reads included).
 *
 * Why: on PGlite every transaction runs on the one session, in arrival order, so ten browsers
 * reloading Pulse queued 70 reads ahead of each ingestion group and ingestion stopped; on
 * PostgreSQL the reads took the pool's connections and the CPU the writes needed.
 *
 * Reads are slowed while writes are busy, never stopped:
 * - while urgent work is running, waiting or ended less than URGENT_LINGER_MS ago, at most
 *   `normalWhileUrgent` normal units run at once (the rest of the capacity stays free for writes);
 * - and then only with credit: every finished urgent unit adds `readShare` x its duration, every
 *   normal unit admitted while urgent work is about spends its own (on one session, the time each lane
 *   actually held it instead: `sessionTime`). So under a continuous write
 *   load reads still get about readShare / (1 + readShare) of the time, and each read waits a
 *   bounded time (the next urgent unit's end gives credit; without urgent work reads run freely).
 */
export type Lane = 'urgent' | 'normal';

export interface GateOptions {
  /** Units at once (on PGlite, queued on its one session in its thread: db/client.ts; the pool size on PostgreSQL). */
  capacity: number;
  /** Urgent units at once, within `capacity` (default: `capacity`). */
  urgentCapacity?: number;
  /** Normal units at once while urgent work is about. */
  normalWhileUrgent: number;
  /** Time reads earn per unit of write time, when both wait for the same slot. */
  readShare?: number;
  /**
   * The units run one at a time on one session (PGlite), and this says how long each lane has held
   * it so far: credit is earned and spent from that, not from the units' durations. A unit's duration
   * there includes its waits for the session behind the other lane's units (PGlite's lock goes to
   * urgent transactions first: pglite-worker.mjs): during batch ingestion the reads admitted in a
   * second lasted 200-1,035 ms in all while they held the session 5-31 ms, and were charged 10 to 100
   * times their time (docs/performance-choices.md "Reads charged for the time they held the session"); and
   * two urgent units admitted together, summed, earned twice the write time there was.
   */
  sessionTime?: () => SessionTime;
}

/** How long each lane has held the database's one session (ms, cumulative, any clock). */
export interface SessionTime {
  readonly normal: number;
  readonly urgent: number;
}

/** After the last urgent unit, the time reads stay limited (a gap between two ingestion groups is not idleness). */
export const URGENT_LINGER_MS = 20;
/** Longest the database stays idle while reads wait for announced urgent work that has not arrived. */
export const IDLE_MS = 10;
/** Credit saved up while no read waited: at most this much read time goes ahead of waiting writes. */
const MAX_CREDIT_MS = 100;
/** Debt of one long read: writes go first for at most about this long / readShare. */
const MIN_CREDIT_MS = -1_000;

interface Waiter {
  start(): void;
}

export class PriorityGate {
  private readonly waiting: Record<Lane, Waiter[]> = { urgent: [], normal: [] };
  private readonly running: Record<Lane, number> = { urgent: 0, normal: 0 };
  private credit = 0;
  private lastUrgentEnd = -Infinity;
  /** One session: the lanes' session time already turned into credit. */
  private seen: SessionTime = { normal: 0, urgent: 0 };
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private pumpScheduled = false;
  /** Urgent work announced but not yet at the gate (a webhook being verified and parsed, waiting for its group). */
  private expected = 0;
  private readonly readShare: number;

  constructor(private readonly opts: GateOptions) {
    this.readShare = opts.readShare ?? 0.25;
    const time = opts.sessionTime?.();
    if (time) this.seen = { normal: time.normal, urgent: time.urgent };
  }

  /** Runs `fn` once its lane is admitted; the slot is held until its promise settles. */
  async run<T>(lane: Lane, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(lane);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Waits for a slot in `lane`; call the answer exactly once to free it. */
  acquire(lane: Lane): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiting[lane].push({
        start: () => {
          const underWrites = lane === 'normal' && this.urgentAbout();
          const began = performance.now();
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.finish(lane, performance.now() - began, underWrites);
          });
        },
      });
      this.pump();
    });
  }

  /**
   * Announces urgent work that will reach the gate later; call the answer once it is done. On
   * PGlite, reads follow one another through the gate's one slot, so a webhook takes a while to
   * arrive at it: announced early, it keeps reads to their share meanwhile.
   */
  expect(): () => void {
    this.expected++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.expected--;
      if (this.expected === 0) this.pumpNextTurn();
    };
  }

  private urgentAbout(): boolean {
    return (
      this.expected > 0 ||
      this.running.urgent > 0 ||
      this.waiting.urgent.length > 0 ||
      performance.now() - this.lastUrgentEnd < URGENT_LINGER_MS
    );
  }

  private finish(lane: Lane, ms: number, normalUnderWrites: boolean): void {
    this.running[lane]--;
    if (lane === 'urgent') this.lastUrgentEnd = performance.now();
    if (this.opts.sessionTime) this.accrueSessionTime();
    else if (lane === 'urgent') this.credit = Math.min(MAX_CREDIT_MS, this.credit + ms * this.readShare);
    else if (normalUnderWrites) this.credit = Math.max(MIN_CREDIT_MS, this.credit - ms);
    this.pumpNextTurn();
  }

  /**
   * The next unit is chosen on a later turn of the event loop, never in the finishing unit's
   * continuation, so requests read meanwhile (webhooks that queue urgent work) are in the queue
   * when the choice is made. Measured when PGlite ran on this thread (its transaction ran in promise
   * continuations that never yielded): 10 browsers' reads ran back to back for seconds while no
   * ingestion group reached the gate. PGlite now runs on its own thread (db/pglite-remote.ts);
   * the turn still lets a webhook that arrived during a unit be chosen before the next read.
   */
  private pumpNextTurn(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * One session: the lanes' session time since the last call as credit, earned by the urgent lane's
   * and spent by the normal lane's while writes are about (reads alone run freely and owe nothing).
   */
  private accrueSessionTime(): void {
    const time = this.opts.sessionTime?.();
    if (!time) return;
    const urgent = time.urgent - this.seen.urgent;
    const normal = time.normal - this.seen.normal;
    if (urgent === 0 && normal === 0) return;
    this.seen = { normal: time.normal, urgent: time.urgent };
    this.credit = Math.min(MAX_CREDIT_MS, this.credit + urgent * this.readShare);
    if (this.urgentAbout()) this.credit = Math.max(MIN_CREDIT_MS, this.credit - normal);
  }

  private pump(): void {
    this.accrueSessionTime();
    for (;;) {
      const total = this.running.urgent + this.running.normal;
      if (total >= this.opts.capacity) return;
      const urgent = this.waiting.urgent.length > 0;
      const normal = this.waiting.normal.length > 0;
      if (!urgent && !normal) return;
      const urgentAbout = this.urgentAbout();
      const normalRoom = this.running.normal < (urgentAbout ? this.opts.normalWhileUrgent : this.opts.capacity);
      const normalFirst = normal && normalRoom && (!urgentAbout || this.credit > 0);
      if (normalFirst) {
        this.running.normal++;
        this.waiting.normal.shift()!.start();
      } else if (urgent && this.running.urgent < (this.opts.urgentCapacity ?? this.opts.capacity)) {
        this.running.urgent++;
        this.waiting.urgent.shift()!.start();
      } else {
        // Reads held back while writes are about (and writes, if any wait, at their own bound): look
        // again once the last write lingered out, and never leave the database idle for long waiting
        // for announced work.
        if (this.running.urgent === 0) this.wakeAfterLinger();
        if (total === 0) this.admitReadIfIdle();
        return;
      }
    }
  }

  /** Nothing runs and the announced urgent work has not arrived within IDLE_MS: one read goes (its time is spent from the credit). */
  private admitReadIfIdle(): void {
    if (this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.running.urgent + this.running.normal > 0 || this.waiting.urgent.length > 0 || this.waiting.normal.length === 0)
        return this.pump();
      this.running.normal++;
      this.waiting.normal.shift()!.start();
    }, IDLE_MS);
    this.idleTimer.unref();
  }

  private wakeAfterLinger(): void {
    if (this.timer) return;
    const wait = Math.max(1, URGENT_LINGER_MS - (performance.now() - this.lastUrgentEnd));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, wait);
    this.timer.unref();
  }
}

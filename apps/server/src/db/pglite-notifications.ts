/**
 * NOTIFY/LISTEN for the embedded database, kept in this process: PGlite is one session in one
 * process (on its own thread, db/pglite-remote.ts), so every listener is here, and a notification
 * needs no trip through the database or to its thread.
 *
 * Why not PGlite's own pg_notify: each status event of an ingestion group was a row of a
 * `pg_notify` statement, queued by the backend, written to its notification queue at commit and
 * parsed back out of the protocol stream by PGlite's JavaScript, one message per event. One-device
 * webhooks in process (50 senders, 5,000 messages) spent 8 % of their group commit time on it
 * (1,257-1,276 -> 1,153-1,178 ms with the announcements left out).
 *
 * The same rules as PostgreSQL's: a notification sent inside a transaction reaches the listeners
 * only after that transaction commits, in the order sent, and never when it rolls back; one sent
 * outside a transaction goes at once; a payload of 8,000 bytes or more is refused with
 * PostgreSQL's error. (There are no savepoints in this code base: a notification sent inside one
 * that rolled back would still go at the outer commit.)
 */

/** PostgreSQL's NOTIFY_PAYLOAD_MAX_LENGTH: payloads must be shorter. */
const MAX_PAYLOAD_BYTES = 8000;

type Listener = (payload: string) => void;

interface Pending {
  channel: string;
  payloads: string[];
}

export class PgliteNotifications {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Per raw PGlite transaction: what it sent, delivered at its commit. */
  private readonly pending = new WeakMap<object, Pending[]>();

  listen(channel: string, onPayload: Listener): () => void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(onPayload);
    return () => set.delete(onPayload);
  }

  /** Sends `payloads` on `channel`: at the commit of `transaction` (a raw PGlite transaction), or at once without one. */
  notify(channel: string, payloads: string[], transaction?: object): void {
    for (const payload of payloads) {
      if (Buffer.byteLength(payload) >= MAX_PAYLOAD_BYTES) throw Object.assign(new Error('payload string too long'), { code: '22023' });
    }
    if (!transaction) return this.deliver([{ channel, payloads }]);
    const queued = this.pending.get(transaction);
    if (queued) queued.push({ channel, payloads });
    else this.pending.set(transaction, [{ channel, payloads }]);
  }

  /**
   * Runs a transaction (`start` hands PGlite its callback) and, once it has committed, delivers
   * what it sent. A rejected transaction (rolled back) delivers nothing.
   */
  async around<T, Tx extends object>(
    start: (callback: (tx: Tx) => Promise<T>) => Promise<T>,
    callback: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    let transaction: Tx | undefined;
    const result = await start((tx) => {
      transaction = tx;
      return callback(tx);
    });
    const sent = transaction && this.pending.get(transaction);
    if (sent) {
      this.pending.delete(transaction!);
      this.deliver(sent);
    }
    return result;
  }

  private deliver(sent: Pending[]): void {
    for (const { channel, payloads } of sent) {
      const set = this.listeners.get(channel);
      if (!set) continue;
      // A copy: a listener may unsubscribe while being called.
      const listeners = [...set];
      for (const payload of payloads) {
        for (const listener of listeners) {
          // The transaction has committed: a listener's failure is its own, never its sender's.
          try {
            listener(payload);
          } catch (err) {
            console.error(`listener on ${channel} failed:`, err);
          }
        }
      }
    }
  }
}

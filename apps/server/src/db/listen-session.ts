import type pgModule from 'pg';

/** Reconnect delays of the LISTEN session: 100 ms doubling to 5 s, each with up to half of it as jitter. */
export const LISTEN_RETRY_FIRST_MS = 100;
export const LISTEN_RETRY_MAX_MS = 5_000;

export interface ListenSession {
  /** Adds a listener; the first for a channel issues LISTEN (and connects the session if needed). */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** The session is connected and listens on every channel (or nothing was asked yet). */
  up(): boolean;
  close(): Promise<void>;
}

const listenStatement = (channel: string) => `LISTEN "${channel.replace(/"/g, '')}"`;

/**
 * PostgreSQL's LISTEN on one dedicated connection, outside the pool (it is never released). A lost
 * connection (database restart, network cut) does not end the process and does not end the
 * notifications for good: the session reconnects with backoff and issues LISTEN again for every
 * channel. NOTIFYs sent while it was down are lost (PostgreSQL keeps none for an absent session).
 */
export function listenSession(pg: typeof pgModule, url: string): ListenSession {
  const channels = new Map<string, Set<(payload: string) => void>>();
  let client: pgModule.Client | undefined;
  let connecting: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = LISTEN_RETRY_FIRST_MS;
  let closed = false;
  let lostAt: number | undefined;

  const scheduleReconnect = () => {
    if (closed || timer || connecting || client) return;
    const wait = delay / 2 + Math.random() * (delay / 2);
    delay = Math.min(delay * 2, LISTEN_RETRY_MAX_MS);
    timer = setTimeout(() => {
      timer = undefined;
      connect().catch(() => scheduleReconnect());
    }, wait);
    timer.unref();
  };

  const open = async () => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    let lost = false;
    const lose = (err?: Error) => {
      if (lost) return;
      lost = true;
      void next.end().catch(() => {});
      if (client !== next) return;
      client = undefined;
      lostAt = Date.now();
      console.error(`postgres LISTEN session lost (${err?.message ?? 'connection ended'}); reconnecting`);
      scheduleReconnect();
    };
    next.on('error', lose);
    next.on('end', () => lose());
    next.on('notification', (msg) => channels.get(msg.channel)?.forEach((fn) => fn(msg.payload ?? '')));
    try {
      await next.connect();
      // A live iteration: a channel added while these statements run is listened to as well.
      for (const channel of channels.keys()) await next.query(listenStatement(channel));
    } catch (err) {
      lose(err as Error);
      throw err;
    }
    if (lost) throw new Error('the LISTEN session was lost while it connected');
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    delay = LISTEN_RETRY_FIRST_MS;
    if (lostAt !== undefined) {
      console.error(`postgres LISTEN session back after ${Date.now() - lostAt} ms`);
      lostAt = undefined;
    }
  };

  const connect = () => {
    connecting ??= open().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    async listen(channel, onPayload) {
      let set = channels.get(channel);
      if (!set) {
        channels.set(channel, (set = new Set()));
        try {
          if (client) await client.query(listenStatement(channel));
          else await connect();
        } catch (err) {
          scheduleReconnect();
          throw err;
        }
      }
      set.add(onPayload);
      const listeners = set;
      return () => {
        listeners.delete(onPayload);
        return Promise.resolve();
      };
    },
    up: () => channels.size === 0 || client !== undefined,
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      const last = client;
      client = undefined;
      await connecting?.catch(() => {});
      await last?.end().catch(() => {});
    },
  };
}

import type { Database, Executor } from '../db/client.ts';

/** The one channel carrying every cross-process event; payload `{topic, event}` as JSON (< 8 kB). */
export const EVENTS_CHANNEL = 'vigil_events';

export type Handler = (event: Record<string, unknown>) => void;

/**
 * Events that must reach every server process (live events, alert triggers).
 * On PostgreSQL they travel by NOTIFY/LISTEN; on PGlite within the one process.
 * Publishing inside a transaction delivers only at commit, never before.
 */
export interface EventBus {
  start(): Promise<void>;
  publish(topic: string, event: Record<string, unknown>, executor?: Executor): Promise<void>;
  /**
   * Several events of one topic, in order. Inside a transaction they go in ONE statement on
   * PostgreSQL instead of one per event (50 round trips cost more than the writes they announce),
   * and without a statement on PGlite (db/pglite-notifications.ts).
   */
  publishAll(topic: string, events: Record<string, unknown>[], executor?: Executor): Promise<void>;
  subscribe(topic: string, handler: Handler): () => void;
  stop(): Promise<void>;
}

/**
 * Publishes on the bus's channel without an EventBus: for work that holds only the database (the
 * rollup, modules/stats/rollup.service.ts). Listeners of a bus on the same database receive it.
 */
export function publishOn(
  database: Pick<Database, 'notify'>,
  topic: string,
  events: Record<string, unknown>[],
  executor?: Executor,
): Promise<void> {
  return database.notify(
    EVENTS_CHANNEL,
    events.map((event) => JSON.stringify({ topic, event })),
    executor,
  );
}

export function createEventBus(database: Database): EventBus {
  const handlers = new Map<string, Set<Handler>>();
  let unlisten: (() => Promise<void>) | undefined;
  const dispatch = (payload: string) => {
    try {
      const { topic, event } = JSON.parse(payload) as { topic: string; event: Record<string, unknown> };
      handlers.get(topic)?.forEach((h) => h(event));
    } catch {
      /* a malformed payload is not ours */
    }
  };
  const publishAll: EventBus['publishAll'] = (topic, events, executor) => publishOn(database, topic, events, executor);
  return {
    async start() {
      unlisten ??= await database.listen(EVENTS_CHANNEL, dispatch);
    },
    publish: (topic, event, executor) => publishAll(topic, [event], executor),
    publishAll,
    subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      set.add(handler);
      return () => set.delete(handler);
    },
    async stop() {
      await unlisten?.();
      unlisten = undefined;
    },
  };
}

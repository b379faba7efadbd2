/**
 * A minimal Server-Sent Events reader over fetch (Node has no EventSource): used by the
 * tests, the multi-process test and the benchmark to watch the live-events stream.
 */
export interface SseEvent {
  event: string;
  data: unknown;
  receivedAt: number;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Resolves with the first event (already received or upcoming) matching, or rejects after `timeoutMs`. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

export async function openSse(url: string): Promise<SseConnection> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  const events: SseEvent[] = [];
  const waiters = new Set<{ match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void; from: number }>();
  const conn: SseConnection = {
    status: res.status,
    headers: res.headers,
    events,
    next(match, timeoutMs = 1000) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (e: SseEvent) => (clearTimeout(timer), waiters.delete(waiter), resolve(e)), from: events.length };
        const timer = setTimeout(
          () => (waiters.delete(waiter), reject(new Error(`no matching SSE event within ${timeoutMs} ms`))),
          timeoutMs,
        );
        waiters.add(waiter);
      });
    },
    close: () => abort.abort(),
  };
  if (!res.ok || !res.body) return conn;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) name = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length === 0) continue; // comments (keep-alive) and retry hints
          const event = { event: name, data: JSON.parse(data.join('\n')) as unknown, receivedAt: Date.now() };
          events.push(event);
          for (const w of [...waiters]) if (w.match(event)) w.resolve(event);
        }
      }
    } catch {
      /* aborted or the server ended the stream */
    }
  })();
  return conn;
}

import http from 'node:http';

export interface SseMessage {
  event: string;
  data: string;
  at: number;
}

/** A raw HTTP client reading a text/event-stream (one socket each, no agent pooling). */
export interface SseClient {
  tenantId: number;
  onMessage?: (m: SseMessage) => void;
  messages: number;
  close(): void;
}

export function openSseClient(url: string, tenantId: number, timeoutMs = 30_000): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const client: SseClient = { tenantId, messages: 0, close: () => req.destroy() };
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`stream answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (data.length === 0) continue;
          client.messages++;
          client.onMessage?.({ event, data: data.join('\n'), at });
        }
      });
      res.on('error', () => {});
      resolve(client);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('stream connect timeout')));
    req.on('error', reject);
  });
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

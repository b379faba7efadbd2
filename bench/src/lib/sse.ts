import net from 'node:net';

export interface SseMessage {
  event: string;
  data: string;
  at: number;
}

/** A raw TCP client reading a text/event-stream (one socket each, no agent pooling). */
export interface SseClient {
  tenantId: number;
  onMessage?: (m: SseMessage) => void;
  messages: number;
  close(): void;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Opens `url` over a bare socket: one GET, the response head checked, then the body decoded
 * (HTTP/1.1 chunked framing or close-delimited) and split into SSE messages.
 *
 * Why not `http.get`: with 5,000 clients in the one load-generator process, the per-message
 * cost of an IncomingMessage stream, its string decoder and string re-slicing was part of the
 * measured latency (the last socket of a fan-out waits for every earlier socket's handler).
 * Here a message costs a few Buffer scans, so the figure is the server's and the network's.
 */
export function openSseClient(url: string, tenantId: number, timeoutMs = 30_000): Promise<SseClient> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    socket.setNoDelay(true);
    const client: SseClient = { tenantId, messages: 0, close: () => socket.destroy() };
    let head: Buffer | null = Buffer.alloc(0);
    let chunked = false;
    /** Raw bytes not yet de-framed (chunked) and de-framed bytes not yet a whole SSE message. */
    let raw: Buffer = Buffer.alloc(0);
    let body: Buffer = Buffer.alloc(0);
    let chunkLeft = 0;

    const onBody = (at: number) => {
      let cut: number;
      while ((cut = body.indexOf('\n\n')) >= 0) {
        const block = body.subarray(0, cut).toString('utf8');
        body = body.subarray(cut + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        if (data.length === 0) continue; // comments (keep-alive) and retry hints
        client.messages++;
        client.onMessage?.({ event, data: data.join('\n'), at });
      }
    };
    const dechunk = () => {
      for (;;) {
        if (chunkLeft > 0) {
          const take = Math.min(chunkLeft, raw.length);
          if (take === 0) return;
          body = body.length ? Buffer.concat([body, raw.subarray(0, take)]) : raw.subarray(0, take);
          raw = raw.subarray(take);
          chunkLeft -= take;
          if (chunkLeft === 0) chunkLeft = -2; // the CRLF after the chunk's data
        }
        if (chunkLeft < 0) {
          if (raw.length < 2) return;
          raw = raw.subarray(2);
          chunkLeft = 0;
        }
        const eol = raw.indexOf(CRLF);
        if (eol < 0) return;
        const size = parseInt(raw.subarray(0, eol).toString('latin1'), 16);
        raw = raw.subarray(eol + 2);
        if (size === 0) return void socket.destroy(); // last chunk: the server ended the stream
        chunkLeft = size;
      }
    };

    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('stream connect timeout')));
    socket.on('error', (err) => (head !== null ? reject(err) : undefined));
    socket.on('connect', () =>
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\nConnection: keep-alive\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      const at = performance.now();
      if (head !== null) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf(HEAD_END);
        if (end < 0) return;
        const lines = head.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(lines[0].split(' ')[1]);
        const rest = head.subarray(end + 4);
        head = null;
        if (status !== 200) {
          socket.destroy();
          reject(new Error(`stream answered ${status}`));
          return;
        }
        chunked = lines.some((l) => /^transfer-encoding:\s*chunked/i.test(l));
        socket.setTimeout(0);
        resolve(client);
        chunk = rest;
      }
      if (chunked) {
        raw = raw.length ? Buffer.concat([raw, chunk]) : chunk;
        dechunk();
      } else body = body.length ? Buffer.concat([body, chunk]) : chunk;
      onBody(at);
    });
    socket.on('close', () => (head !== null ? reject(new Error('stream closed before its response head')) : undefined));
  });
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

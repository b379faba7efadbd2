/**
 * The bytes of the live-events stream, written straight to the client's socket (not through a
 * ServerResponse: see live-stream.ts). HTTP/1.1 streams are `Transfer-Encoding: chunked`, as Node
 * would frame them; HTTP/1.0 has no chunking, so its body simply ends with the connection.
 */

export const sseMessage = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * One or more SSE messages framed once for every client of a fan-out: `chunked` is the whole
 * HTTP chunk (size line, data, CRLF), `plain` the same memory without the framing. Every socket
 * is handed the same Buffer, so a fan-out allocates once, and bytes queued for slow clients are
 * shared rather than copied.
 */
export interface SseFrame {
  chunked: Buffer;
  plain: Buffer;
}

export function sseFrame(text: string): SseFrame {
  const length = Buffer.byteLength(text);
  const sizeLine = `${length.toString(16)}\r\n`;
  const chunked = Buffer.allocUnsafe(sizeLine.length + length + 2);
  chunked.write(sizeLine, 0, 'latin1');
  chunked.write(text, sizeLine.length, 'utf8');
  chunked.write('\r\n', sizeLine.length + length, 'latin1');
  return { chunked, plain: chunked.subarray(sizeLine.length, sizeLine.length + length) };
}

/** The end of a chunked body. */
export const LAST_CHUNK = Buffer.from('0\r\n\r\n', 'latin1');

/** Header names and values are ours (helmet's, the request id, the stream's): refuse anything that could split the head. */
const unsafe = /[\r\n]/;

/** The response head of a stream: status line, the reply's headers (security headers, request id) and the stream's own. */
export function sseHead(httpVersion: string, headers: Record<string, string | number | string[] | undefined>, chunked: boolean): string {
  const lines = [`HTTP/${httpVersion === '1.0' ? '1.0' : '1.1'} 200 OK`];
  const all: Record<string, string | number | string[] | undefined> = {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    date: new Date().toUTCString(),
    connection: chunked ? 'keep-alive' : 'close',
  };
  if (chunked) all['transfer-encoding'] = 'chunked';
  for (const [name, value] of Object.entries(all)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      const text = String(v);
      if (unsafe.test(name) || unsafe.test(text)) throw new Error(`live events: unsafe response header ${name}`);
      lines.push(`${name}: ${text}`);
    }
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

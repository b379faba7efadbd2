/**
 * A full garbage collection in the bench server, on demand, through Node's inspector: SIGUSR1 opens
 * it (Node's own signal; the server is started with `--inspect-port` on a free local port so it
 * opens there) and `HeapProfiler.collectGarbage` collects. Used before the memory samples of the live
 * events: without it the RSS growth per SSE client depended on when V8 last collected the garbage of
 * the clients' ticket requests (the same build measured 15.8 and 41.8 KB per client at S, and at 1,000
 * clients between -45.9 and +0.3 KB).
 */
import { WebSocket } from 'ws';

interface InspectorTarget {
  webSocketDebuggerUrl?: string;
}

async function debuggerUrl(port: number, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as InspectorTarget[];
      const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      /* the inspector is not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`the server's inspector did not open on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sends one inspector command and waits for its answer. */
function command<T>(socket: WebSocket, id: number, method: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${method} did not answer within 30 s`)), 30_000);
    const onMessage = (data: unknown) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: T; error?: { message: string } };
      if (message.id !== id) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      if (message.error) reject(new Error(message.error.message));
      else resolve(message.result as T);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, method }));
  });
}

/**
 * Opens the server's inspector (SIGUSR1 again is harmless), runs a full collection and answers the
 * JavaScript heap in use after it (bytes): the live objects, which RSS shows only once they outgrow
 * the pages the collected garbage leaves resident.
 */
export async function collectServerGarbage(pid: number, inspectPort: number): Promise<number> {
  process.kill(pid, 'SIGUSR1');
  const socket = new WebSocket(await debuggerUrl(inspectPort, 10_000));
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await command(socket, 1, 'HeapProfiler.collectGarbage');
    return (await command<{ usedSize: number }>(socket, 2, 'Runtime.getHeapUsage')).usedSize;
  } finally {
    socket.close();
  }
}

import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL for fault tests: every connection the app makes goes through
 * it, so a test can cut them all at once (as a database restart or a network fault would), refuse
 * new ones for a while (the database is away), and restore.
 */
export interface TcpProxy {
  /** 127.0.0.1 port the app connects to. */
  port: number;
  /** Open client connections right now. */
  readonly open: number;
  /** Destroys every open connection (both sides). */
  cut(): void;
  /** From now on, new connections are closed as soon as they are accepted (and `cut()` too). */
  refuse(): void;
  /** Accepts and forwards again. */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const cut = () => {
    for (const { client, upstream } of [...pairs]) {
      // A reset, as a dying server or a broken link gives, rather than a polite FIN.
      client.resetAndDestroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    get open() {
      return pairs.size;
    },
    cut,
    refuse() {
      refusing = true;
      cut();
    },
    restore() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}

/** The same URL with host and port of the proxy. */
export function throughProxy(databaseUrl: string, proxy: TcpProxy): string {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}

import autocannon, { type AutocannonRequest } from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  maxConnections?: number;
  /** Answer a result even when nothing succeeded (a starved run is a figure, not a failure). */
  allowNone?: boolean;
  /** Seconds; ignored when `amount` is set. */
  duration: number;
  amount?: number;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  /** Builds each request (e.g. a freshly signed webhook). */
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}

export interface LoadResult {
  /** Successful (2xx) responses per second over the run. */
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  seconds: number;
}

/** One autocannon run; latency in ms. A run where nothing succeeded throws with the status codes seen. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  opts = { ...opts, connections: Math.min(opts.connections, opts.maxConnections ?? Infinity) };
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    // autocannon refuses fewer requests than connections.
    ...(opts.amount ? { amount: Math.max(opts.amount, opts.connections * 2) } : { duration: opts.duration }),
    timeout: 30,
    ...(opts.method && { method: opts.method }),
    ...(opts.headers && { headers: opts.headers }),
    ...(opts.body && { body: opts.body }),
    ...(opts.setupRequest && { requests: [{ setupRequest: opts.setupRequest }] }),
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, Number(v.count)]));
  const ok = result['2xx'];
  if (ok === 0 && !opts.allowNone)
    throw new Error(`no successful response (status codes ${JSON.stringify(statusCodes)}, errors ${result.errors})`);
  return {
    reqPerSec: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
    seconds: result.duration,
  };
}

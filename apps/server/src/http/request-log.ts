import type { FastifyInstance } from 'fastify';

/** A request slower than this is worth a look, whatever its status. */
export const SLOW_REQUEST_MS = 1000;

/**
 * The level of a request's line: `error` for a server failure (5xx), `warn` for a slow answer, `debug`
 * for everything else. Routine traffic (webhooks by the thousand, the console's polling) and client
 * mistakes (4xx) stay out of the way at the default `info`; the 4xx that matter are logged where they
 * happen, with their reason: failed sign-ins, refused webhooks, access denied (403).
 */
export function requestLogLevel(status: number, ms: number): 'error' | 'warn' | 'debug' {
  if (status >= 500) return 'error';
  if (ms > SLOW_REQUEST_MS) return 'warn';
  return 'debug';
}

/**
 * One log line per request with its id, method, path (no query string: it may carry a stream ticket),
 * status and time, at the level of requestLogLevel(): `LOG_LEVEL=debug` shows every request.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const status = reply.statusCode;
    const path = req.url.split('?')[0];
    const ms = Math.round(reply.elapsedTime);
    const level = requestLogLevel(status, reply.elapsedTime);
    req.log[level]({ method: req.method, path, status, ms }, level === 'warn' ? 'slow request' : 'request');
  });
}

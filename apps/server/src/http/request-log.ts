import type { FastifyInstance } from 'fastify';

/**
 * One log line per request with its id, method, path (no query string: it may
 * carry a stream ticket), status and time. Accepted webhooks arrive by the
 * thousand from device clouds, so they log at debug; their failures stay at info.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const status = reply.statusCode;
    const path = req.url.split('?')[0];
    const routine = status < 300 && path?.startsWith('/v0/webhooks/');
    const level = status >= 500 ? 'error' : routine ? 'debug' : 'info';
    req.log[level]({ method: req.method, path, status, ms: Math.round(reply.elapsedTime) }, 'request');
  });
}

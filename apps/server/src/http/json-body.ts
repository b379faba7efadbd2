import type { FastifyInstance } from 'fastify';

/**
 * fastify refuses `content-type: application/json` with an empty body; clients
 * (and curl users) send exactly that for bodiless POSTs such as logout. A request
 * that declares a zero-length body is treated as having no body at all, so the
 * route's schema decides. Done before parsing, so scoped parsers (raw-body
 * webhooks) are untouched.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  // Returns a promise: fastify waits for it (a hook that returns nothing must call `done`).
  app.addHook('onRequest', (req) => {
    const empty = !req.headers['transfer-encoding'] && (req.headers['content-length'] ?? '0') === '0';
    if (empty && req.headers['content-type']?.startsWith('application/json')) {
      delete req.headers['content-type'];
    }
    return Promise.resolve();
  });
}

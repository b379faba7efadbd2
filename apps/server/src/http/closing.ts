import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/**
 * From the first moment of a shutdown (docs/operations-runbook.md), a request that reaches the server
 * on a connection still open (keep-alive) answers 503 UNAVAILABLE in the API's error shape, `/readyz`
 * included, so a load balancer takes this process out at once. Replaces Fastify's own 503, whose body
 * has another shape (`return503OnClosing: false` in app.ts). Requests already running are not touched:
 * they finish within the drain time (server.ts).
 */
export function answerUnavailableWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (req, _reply, done) => {
    if (!closing) return done();
    const readyz = req.url === '/readyz' || req.url.startsWith('/readyz?');
    const error = new AppError(
      'UNAVAILABLE',
      readyz ? 'Not ready: the server is shutting down.' : 'The server is shutting down. Try again shortly.',
      { 'retry-after': '1' },
      readyz ? { status: 'unavailable' } : {},
    );
    done(error);
  });
}

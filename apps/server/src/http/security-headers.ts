import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const helmetMiddleware = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", 'https://js.stripe.com'],
      // Ant Design injects its CSS-in-JS as style elements.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'https://api.stripe.com'],
      frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
      formAction: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
});

/**
 * The headers helmet sets with the options above, worked out once by running its middleware on a
 * stand-in response: none of them depends on the request (no CSP nonce, no per-request choice).
 */
export function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failure: unknown;
  let ran = false;
  helmetMiddleware({ headers: {} } as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
    ran = true;
  });
  // helmet runs its middlewares synchronously; anything else would be a change of helmet's to look at.
  if (!ran || failure) throw new Error(`helmet did not set its headers synchronously: ${String(failure ?? 'still running')}`);
  return headers;
}

/**
 * helmet's security headers on every answer, set as one precomputed object through fastify's reply
 * (written with the head) instead of running helmet's dozen middlewares, each calling the raw
 * response's setHeader, per request: about 3 % of the server's CPU under webhook load. (@fastify/helmet
 * even builds helmet's middleware again on every request.)
 */
export function securityHeaders(app: FastifyInstance): void {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}

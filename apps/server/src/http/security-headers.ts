import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * helmet's security headers on every answer, computed once. (@fastify/helmet builds helmet's
 * middleware again on every request, parsing the CSP directives each time: ~3 % of the server's CPU
 * under list load. helmet's own middleware, built once, still wrote the CSP from its directives and
 * set each header on every request: 2.6 % of the request thread's CPU on the devices list @50, perf.)
 * Nothing here depends on the request (no nonce, no function directive), so the headers helmet sets
 * are read once, from a response that only records them, and given to every reply.
 */
export function securityHeaders(app: FastifyInstance): void {
  const headers = helmetHeaders({
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
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet sets with `options`, as it sets them on a response. */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed instanceof Error ? failed : new Error('security headers: helmet failed');
  // helmet sets them before it calls next, synchronously; a version that did otherwise must not start without them.
  if (!headers['content-security-policy']) throw new Error('security headers: helmet set no Content-Security-Policy');
  return headers;
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * Serves the built web app; every non-API path that is not a file gets index.html
 * (SPA fallback), unknown /v0 paths get a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, distDir = WEB_DIST): Promise<void> {
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      // Resolve files per request, so a rebuilt dist is served without a restart.
      wildcard: true,
      // `/` (and any folder) answers index.html, the app's entry.
      index: 'index.html',
      // The build writes `.br` and `.gz` beside each asset (apps/web/src/build/precompress.ts): sent to
      // browsers that accept them (Vary: Accept-Encoding), the plain file otherwise. About 7x fewer bytes.
      preCompressed: true,
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (url === '/v0' || url.startsWith('/v0/') || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.code(404).send({ error: { code: 'NOT_FOUND', msg: 'Resource not found.' } });
    }
    if (url.startsWith('/assets/')) {
      // A stale chunk name must fail as a 404, not as index.html parsed as JavaScript.
      return reply.code(404).type('text/plain').send('Not found');
    }
    if (!built) {
      return reply.code(503).type('text/plain').send('The web app is not built: run `npm run build` (npm start does it for you).');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

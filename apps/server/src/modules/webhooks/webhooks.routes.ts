import { webhookEndpoints } from '@vigil/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import { route, type AppModule } from '../../http/route.ts';
import { ingestWebhook } from './ingest.service.ts';

/** docs/decisions.md 18: webhook bodies up to 5 MiB (5,000 devices per message). */
export const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

/**
 * The portal webhook, in its own encapsulated plugin: here (and only here) JSON
 * bodies stay raw bytes, because the signature covers the bytes as sent, never a
 * re-serialization. The handler parses and validates after verifying.
 */
export const webhooksModule: AppModule = async (app, deps) => {
  // eslint-disable-next-line @typescript-eslint/require-await -- an async plugin: a throw while registering (a duplicate route) rejects app.register instead of escaping avvio
  await app.register(async (scoped: FastifyInstance) => {
    // The app-wide JSON parser is replaced in this context only (encapsulation keeps it everywhere else).
    if (scoped.hasContentTypeParser('application/json')) scoped.removeContentTypeParser('application/json');
    scoped.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    // An already-accepted webhook-id answers 200 (not the route's 202); route() sets the status last, so adjust it on send.
    const duplicates = new WeakSet<FastifyRequest>();
    scoped.addHook('onSend', async (req, reply, payload) => {
      if (duplicates.has(req) && reply.statusCode === 202) reply.code(200);
      return payload;
    });
    route(scoped, deps, webhookEndpoints.portal, {
      permission: 'public',
      options: { bodyLimit: WEBHOOK_BODY_LIMIT },
      handler: async ({ params, req }) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const result = await ingestWebhook(deps, { portalParam: params.id, headers: req.headers, raw }).catch((err: unknown) => {
          // Failed access checks are logged (docs/decisions.md 39, rule 10); never the signature or the body.
          if (err instanceof AppError && err.status === 401)
            req.log.warn({ portal: params.id, webhookId: req.headers['webhook-id'] }, 'webhook rejected');
          throw err;
        });
        if (result.duplicate) duplicates.add(req);
        return { data: result };
      },
    });
  });
};

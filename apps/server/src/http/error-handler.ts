import { MSG, STATUS_MESSAGES } from '@vigil/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors.ts';

const SPEC_MESSAGES = new Set<string>((Object.values(MSG) as unknown[]).filter((m): m is string => typeof m === 'string'));
const WHERE: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** The first validation issue as a human message: the spec's text where it has one, else "where.path: problem". */
function validationMessage(err: FastifyError & { validation: { instancePath: string; message?: string }[] }): string {
  const first = err.validation[0];
  const message = first?.message ?? 'Invalid input';
  if (SPEC_MESSAGES.has(message)) return message;
  const where = WHERE[err.validationContext ?? 'body'] ?? 'body';
  const path = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  return `${where}${path ? `.${path}` : ''}: ${message}`;
}

const isDatabaseDown = (err: unknown) =>
  err instanceof Error && /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|timeout exceeded when trying to connect/i.test(err.message);

/** One place maps every failure to `{"error": {"code", "msg"}}` with the spec's statuses. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) req.log.error({ err }, err.message);
      return reply.code(err.status).headers(err.headers).send({ error: { code: err.code, msg: err.message } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.code(400).send({ error: { code: 'VALIDATION_FAILED', msg: validationMessage(err as never) } });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ issues: err.cause.issues, url: req.url }, 'response failed its schema');
      return reply.code(500).send({ error: { code: 'INTERNAL', msg: STATUS_MESSAGES[500], requestId: req.id } });
    }
    if (isDatabaseDown(err)) {
      req.log.error({ err: err.message }, 'database unavailable');
      return reply.code(503).send({ error: { code: 'UNAVAILABLE', msg: 'The service is temporarily unavailable. Try again shortly.', requestId: req.id } });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // fastify's own client errors: bad JSON, body too large, unsupported media type, rate limit.
      const code = status === 429 ? 'RATE_LIMITED' : status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_FAILED';
      return reply.code(status).send({ error: { code, msg: err.message || STATUS_MESSAGES[status] || 'Bad request.' } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ error: { code: 'INTERNAL', msg: STATUS_MESSAGES[500], requestId: req.id } });
  });
}

import { MSG, STATUS_MESSAGES } from '@vigil/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { AppError } from './errors.ts';

const SPEC_MESSAGES = new Set<string>((Object.values(MSG) as unknown[]).filter((m): m is string => typeof m === 'string'));
const WHERE: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** The first validation issue as a human message: the product's text where it has one, else "where.path: problem". */
function validationMessage(err: FastifyError & { validation: { instancePath: string; message?: string }[] }): string {
  const first = err.validation[0];
  const message = first?.message ?? 'Invalid input';
  if (SPEC_MESSAGES.has(message)) return message;
  const where = WHERE[err.validationContext ?? 'body'] ?? 'body';
  const path = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  return `${where}${path ? `.${path}` : ''}: ${message}`;
}

/** PostgreSQL's SQLSTATE of a failed query, whether the driver error is bare or wrapped by drizzle. */
function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/**
 * Class 22 (data exception) means the client's value cannot be stored or compared
 * (e.g. a NUL character in text, a number out of range): the client's fault, a 400.
 */
function dataExceptionMessage(state: string): string {
  if (state === '22021') return 'Text must not contain NUL characters.';
  if (state === '22003') return 'A number is out of range.';
  return 'A value in the request is not valid.';
}

/** One place maps every failure to `{"error": {"code", "msg"}}` with the product's statuses. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) req.log.error({ err }, err.message);
      return reply
        .code(err.status)
        .headers(err.headers)
        .send({ error: { code: err.code, msg: err.message, ...err.details } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.code(400).send({ error: { code: 'VALIDATION_FAILED', msg: validationMessage(err) } });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ issues: err.cause.issues, url: req.url }, 'response failed its schema');
      return reply.code(500).send({ error: { code: 'INTERNAL', msg: STATUS_MESSAGES[500], requestId: req.id } });
    }
    const state = sqlState(err);
    if (state?.startsWith('22')) {
      req.log.warn({ sqlState: state, url: req.url }, 'data exception from the request');
      return reply.code(400).send({ error: { code: 'VALIDATION_FAILED', msg: dataExceptionMessage(state) } });
    }
    // Refused, lost or restarting (db/connection-errors.ts): the database is away, not a server bug.
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: err.message, url: req.url }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({ error: { code: 'UNAVAILABLE', msg: 'The service is temporarily unavailable. Try again shortly.', requestId: req.id } });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // fastify's own client errors: bad JSON, body too large, unsupported media type, rate limit.
      const code =
        status === 429
          ? 'RATE_LIMITED'
          : status === 413
            ? 'PAYLOAD_TOO_LARGE'
            : status === 415
              ? 'UNSUPPORTED_MEDIA_TYPE'
              : 'VALIDATION_FAILED';
      return reply.code(status).send({ error: { code, msg: err.message || STATUS_MESSAGES[status] || 'Bad request.' } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ error: { code: 'INTERNAL', msg: STATUS_MESSAGES[500], requestId: req.id } });
  });
}

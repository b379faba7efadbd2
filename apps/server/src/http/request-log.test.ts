import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logRequests, requestLogLevel, SLOW_REQUEST_MS } from './request-log.ts';

describe('request log levels', () => {
  it('error for 5xx, warn when slow, debug for the rest (4xx included)', () => {
    expect([500, 502, 503].map((s) => requestLogLevel(s, 5))).toEqual(['error', 'error', 'error']);
    expect(requestLogLevel(200, SLOW_REQUEST_MS + 1)).toBe('warn');
    expect(requestLogLevel(404, 2500)).toBe('warn');
    expect(requestLogLevel(503, 2500)).toBe('error');
    expect([200, 201, 202, 204, 304, 400, 401, 403, 404, 409, 429].map((s) => requestLogLevel(s, SLOW_REQUEST_MS))).toEqual(
      Array(11).fill('debug'),
    );
  });

  it('logs routine requests only at debug: at info a console sees failures, not traffic', async () => {
    type LogRecord = { level: number; msg: string; status?: number; path?: string };
    const records: LogRecord[] = [];
    const log: FastifyBaseLogger = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _enc, done) => (records.push(JSON.parse(String(chunk)) as LogRecord), done()) }),
    );
    const app = Fastify({ loggerInstance: log, disableRequestLogging: true });
    logRequests(app);
    app.get('/ok', () => Promise.resolve({ ok: true }));
    app.get('/missing', async (_req, reply) => reply.code(404).send({}));
    app.get('/boom', async (_req, reply) => reply.code(500).send({}));
    for (const url of ['/ok', '/missing', '/ok?ticket=secret', '/boom']) await app.inject({ url });
    await app.close();
    expect(records.filter((r) => r.msg === 'request').map((r) => [r.level, r.status, r.path])).toEqual([[50, 500, '/boom']]);
    expect(JSON.stringify(records)).not.toContain('secret');
  });
});

import { pathOf, toListSearchParams, type Endpoint, type ListQueryInput } from '@vigil/contracts';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { z } from 'zod';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { createDeps, type AppDeps } from '../src/deps.ts';
import { FakeClock } from '../src/lib/clock.ts';
import type { Mail, Mailer } from '../src/mail/mailer.ts';
import { resetDatabase, sharedDatabase } from './database.ts';

export class CapturingMailer implements Mailer {
  readonly sent: Mail[] = [];
  send(mail: Mail) {
    this.sent.push(mail);
    return Promise.resolve();
  }
  /** The newest mail to `to`, or throws. */
  last(to: string): Mail {
    const mail = [...this.sent].reverse().find((m) => m.to === to);
    if (!mail) throw new Error(`no mail to ${to}`);
    return mail;
  }
  /** The `token` query parameter of the first link in the newest mail to `to`. */
  tokenFor(to: string): string {
    const match = this.last(to).text.match(/[?&]token=([A-Za-z0-9_\-.%]+)/);
    if (!match?.[1]) throw new Error(`no token link in the mail to ${to}`);
    return decodeURIComponent(match[1]);
  }
}

/** `_E` is the endpoint called; the options do not depend on it (the body is unknown). */
export interface CallOptions<_E extends Endpoint> {
  params?: Record<string, string | number>;
  query?: Record<string, string | number> | ListQueryInput;
  /** Typed as unknown: tests also send bodies the endpoint's schema refuses. */
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T> {
  status: number;
  body: T & { error?: { code: string; msg: string } };
  headers: Record<string, string | string[] | number | undefined>;
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  database: Database;
  clock: FakeClock;
  mailer: CapturingMailer;
  config: Config;
  /**
   * Calls an endpoint of the contracts through HTTP (inject). A 2xx answer is
   * checked against the endpoint's response schema, so tests read typed data.
   */
  call<E extends Endpoint>(endpoint: E, opts?: CallOptions<E>): Promise<CallResult<z.output<E['response']>>>;
  close(): Promise<void>;
}

const LIST_KEYS = ['range', 'sort', 'filter'];

function queryString(query: CallOptions<Endpoint>['query']): string {
  if (!query) return '';
  const entries = Object.entries(query);
  const params = toListSearchParams(Object.fromEntries(entries.filter(([k]) => LIST_KEYS.includes(k))));
  for (const [k, v] of entries) if (!LIST_KEYS.includes(k)) params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface TestAppOptions {
  env?: Record<string, string>;
  overrides?: Partial<AppDeps>;
}

/**
 * The real app (buildApp) on this worker's migrated database, emptied first.
 * Fake clock and capturing mailer by default; no rate limit; no periodic jobs.
 */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const database = await sharedDatabase();
  await resetDatabase(database);
  const config = loadConfig({
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    SEED: 'none',
    SIMULATOR: 'off',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/vigil-test-data',
    ...opts.env,
  });
  const clock = new FakeClock(new Date());
  const mailer = new CapturingMailer();
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const deps = createDeps(config, database, log, { clock, mailer, rateLimit: false, jobs: false, ...opts.overrides });
  await deps.bus.start();
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    database,
    clock,
    mailer,
    config,
    async call(endpoint, callOpts = {}) {
      const headers: Record<string, string> = { ...callOpts.headers };
      if (callOpts.token) headers.authorization = `Bearer ${callOpts.token}`;
      const res = await app.inject({
        method: endpoint.method,
        url: pathOf(endpoint.path, callOpts.params) + queryString(callOpts.query),
        headers,
        ...(callOpts.body !== undefined && { payload: callOpts.body as object }),
      });
      const text = res.body;
      type Answer = CallResult<z.output<(typeof endpoint)['response']>>['body'];
      const body = (text && res.headers['content-type']?.toString().includes('json') ? JSON.parse(text) : text) as Answer;
      if (res.statusCode < 300 && typeof body === 'object') endpoint.response.parse(body);
      return { status: res.statusCode, body, headers: res.headers };
    },
    async close() {
      await app.close();
      await deps.bus.stop();
    },
  };
}

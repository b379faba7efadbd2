import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createEventBus, type EventBus } from './events/bus.ts';
import type { RegisteredRoute } from './http/route.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createAccessTokens, type AccessTokens } from './security/access-tokens.ts';
import { createSecretBox, type SecretBox } from './security/secret-box.ts';

/** Everything a module may use, passed explicitly (no module-level singletons). */
export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  mailer: Mailer;
  accessTokens: AccessTokens;
  secretBox: SecretBox;
  bus: EventBus;
  /** Filled by route(): the route table walked by the guard test. */
  routes: RegisteredRoute[];
  /** Every route fastify mounted (method and url), to find any that bypassed route(). */
  mounted: { method: string; url: string }[];
  /** Turned off by tests and benchmarks that drive the API at high rates. */
  rateLimit: { max: number; timeWindow: number } | false;
  /** Periodic jobs (offline sweep, license scan); tests drive ticks by hand instead. */
  jobs: boolean;
}

export function createDeps(config: Config, database: Database, log: FastifyBaseLogger, overrides: Partial<AppDeps> = {}): AppDeps {
  const clock = overrides.clock ?? systemClock;
  return {
    config,
    database,
    clock,
    log,
    mailer: overrides.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, database, log }),
    accessTokens: overrides.accessTokens ?? createAccessTokens(config.appSecret, clock),
    secretBox: overrides.secretBox ?? createSecretBox(config.appSecret),
    bus: overrides.bus ?? createEventBus(database),
    routes: [],
    mounted: [],
    rateLimit: overrides.rateLimit ?? (config.rateLimitPerMinute > 0 ? { max: config.rateLimitPerMinute, timeWindow: 60_000 } : false),
    jobs: overrides.jobs ?? true,
  };
}

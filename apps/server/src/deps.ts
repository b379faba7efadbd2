import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createEventBus, type EventBus } from './events/bus.ts';
import { TOPICS, type SessionsRevokedEvent } from './events/topics.ts';
import type { RegisteredRoute } from './http/route.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createAccessTokens, type AccessTokens } from './security/access-tokens.ts';
import { createSecretBox, type SecretBox } from './security/secret-box.ts';
import { createSessionState, type SessionState } from './security/session-state.ts';

/** Everything a module may use, passed explicitly (no module-level singletons). */
export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  mailer: Mailer;
  accessTokens: AccessTokens;
  /** Whether an access token's session still stands (revocations end access within seconds). */
  sessions: SessionState;
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
  const bus = overrides.bus ?? createEventBus(database);
  const sessions = overrides.sessions ?? createSessionState(database, clock);
  // Another process (or this one) ended sessions of the user: its cached state goes at once.
  bus.subscribe(TOPICS.sessionsRevoked, (event) => sessions.forget(Number((event as SessionsRevokedEvent).userId)));
  return {
    config,
    database,
    clock,
    log,
    mailer: overrides.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, database, log }),
    accessTokens: overrides.accessTokens ?? createAccessTokens(config.appSecret, clock),
    secretBox: overrides.secretBox ?? createSecretBox(config.appSecret),
    sessions,
    bus,
    routes: [],
    mounted: [],
    rateLimit: overrides.rateLimit ?? (config.rateLimitPerMinute > 0 ? { max: config.rateLimitPerMinute, timeWindow: 60_000 } : false),
    jobs: overrides.jobs ?? true,
  };
}

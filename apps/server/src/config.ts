import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const flag = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

/** Every variable of docs/decisions.md 14; each optional with a working default. */
/**
 * Fastify's `trustProxy`: unset or `false` trusts no proxy (the socket's address is the client's),
 * a hop count (`1`), `true` (every proxy: only when nothing else can reach the port), or a
 * comma-separated list of proxy addresses or CIDR ranges.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): boolean | number | string[] => {
    if (v === 'false' || v === '0') return false;
    if (v === 'true') return true;
    if (/^[1-9][0-9]{0,2}$/.test(v)) return Number(v);
    const list = v.split(',').map((a) => a.trim());
    if (list.every((a) => isIP(a.split('/')[0] ?? '') !== 0 && /^[^/]+(\/[0-9]{1,3})?$/.test(a))) return list;
    ctx.addIssue({ code: 'custom', message: 'a hop count (1), true, false, or a comma-separated list of proxy addresses or CIDR ranges' });
    return z.NEVER;
  });

const envSchema = z.object({
  HOST: z
    .string()
    .trim()
    .min(1)
    .refine(
      (v) => isIP(v) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(v),
      'an IP address or host name to listen on (0.0.0.0, ::, 127.0.0.1, localhost)',
    )
    .default('0.0.0.0'),
  TRUST_PROXY: trustProxy.optional(),
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SEED: flag(['demo', 'none']).default('demo'),
  SIMULATOR: flag(['on', 'off']).default('on'),
  SUPERADMIN_EMAIL: z.email().optional(),
  SUPERADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(128).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Vigil <no-reply@vigil.local>'),
  PAYMENTS: flag(['sandbox', 'stripe']).default('sandbox'),
  PAYMENTS_SANDBOX_IN_PRODUCTION: flag(['0', '1']).default('0'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.url().optional(),
  /** Public by design (Stripe.js in the browser); with it, PAYMENTS=stripe takes the card in the app's own dialog. */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9]+$/, 'a Stripe publishable key (pk_test_... or pk_live_...)')
    .optional(),
  COMMAND_PORTAL_URL: z.url().default('https://command.example.com'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  LOG_LEVEL: flag(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: flag(['json', 'pretty']).optional(),
  /** 1: notification channels may target loopback, private and link-local addresses (tests, on-prem). */
  NOTIFY_ALLOW_PRIVATE_TARGETS: flag(['0', '1']).default('0'),
});

export interface Config {
  /** The address the server listens on. */
  host: string;
  /** Fastify's `trustProxy`: which proxies' X-Forwarded-For is believed for the client address (req.ip). */
  trustProxy: boolean | number | string[];
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  appSecret: string;
  seed: 'demo' | 'none';
  simulator: boolean;
  superAdmin?: { email: string; password: string };
  smtpUrl?: string;
  mailFrom: string;
  payments: 'sandbox' | 'stripe';
  stripe: { secretKey?: string; webhookSecret?: string; apiBase?: string; publishableKey?: string };
  commandPortalUrl: string;
  logLevel: string;
  /** Unset: pretty when stdout is a terminal, JSON otherwise. */
  logFormat?: 'json' | 'pretty';
  /** Requests per minute per client address on the API; 0 turns the limiter off. */
  rateLimitPerMinute: number;
  /** Notification targets on loopback, private and link-local addresses are allowed (docs/notifications.md). */
  notifyAllowPrivateTargets: boolean;
}

export class ConfigError extends Error {}

/**
 * `trustProxy` as fastify takes it. fastify 5 turns a bare hop count down (it trusts nobody then), so a
 * count becomes the rule proxy-addr applies to it: the socket's peer and the next `n - 1` addresses of
 * X-Forwarded-For are proxies, and the address before them is the client's.
 */
export function fastifyTrustProxy(value: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** Parses the environment once; an invalid value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.SUPERADMIN_EMAIL) !== Boolean(e.SUPERADMIN_PASSWORD)) {
    throw new ConfigError('Invalid configuration:\n  SUPERADMIN_PASSWORD: SUPERADMIN_EMAIL and SUPERADMIN_PASSWORD go together');
  }
  if (e.PAYMENTS === 'stripe' && !e.STRIPE_SECRET_KEY) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_SECRET_KEY: required when PAYMENTS=stripe');
  }
  if (e.NODE_ENV === 'production' && e.PAYMENTS === 'sandbox' && e.PAYMENTS_SANDBOX_IN_PRODUCTION !== '1') {
    throw new ConfigError(
      'Invalid configuration:\n  PAYMENTS: the sandbox payment provider takes no money and is refused with NODE_ENV=production; ' +
        'set PAYMENTS=stripe with STRIPE_SECRET_KEY, or PAYMENTS_SANDBOX_IN_PRODUCTION=1 to run the sandbox on purpose',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    host: e.HOST,
    trustProxy: e.TRUST_PROXY ?? false,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    appSecret: e.APP_SECRET ?? persistedSecret(dataDir),
    seed: e.SEED,
    simulator: e.SIMULATOR === 'on',
    superAdmin: e.SUPERADMIN_EMAIL ? { email: e.SUPERADMIN_EMAIL, password: e.SUPERADMIN_PASSWORD! } : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    payments: e.PAYMENTS,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
    },
    commandPortalUrl: e.COMMAND_PORTAL_URL,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    notifyAllowPrivateTargets: e.NOTIFY_ALLOW_PRIVATE_TARGETS === '1',
  };
}

/** APP_SECRET unset: generate one and keep it in DATA_DIR so tokens and encrypted keys survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const flag = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

/** Every variable of docs/decisions.md 14; each optional with a working default. */
const envSchema = z.object({
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
});

export interface Config {
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
  /** Requests per minute per client address on the API; 0 turns the limiter off. */
  rateLimitPerMinute: number;
}

export class ConfigError extends Error {}

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
  const dataDir = path.resolve(e.DATA_DIR);
  return {
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
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
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

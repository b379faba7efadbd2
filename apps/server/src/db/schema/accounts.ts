import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, real, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './columns.ts';

export const tenants = pgTable('tenants', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  contactName: text('contact_name').notNull().default(''),
  brand: text('brand').notNull().default(''),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  address: text('address').notNull().default(''),
  freeCount: integer('free_count').notNull().default(0),
  freeTier: boolean('free_tier').notNull().default(false),
  discount: real('discount').notNull().default(0),
  goalScore: real('goal_score').notNull().default(95),
  heartbeatTimeout: integer('heartbeat_timeout').notNull().default(10),
  timezone: text('timezone').notNull().default('UTC'),
  /** none | trialing | active | past_due | canceled */
  subscriptionStatus: text('subscription_status').notNull().default('none'),
  providerCustomerId: text('provider_customer_id'),
  providerSubscriptionId: text('provider_subscription_id'),
  deletedAt: tstz('deleted_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Accounts. tenant_id is null for the superAdmin and for people who signed up
 * and have not created their tenant yet (tenantId -1 in token claims).
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull().default(''),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    passwordHash: text('password_hash'),
    emailVerifiedAt: tstz('email_verified_at'),
    deactivatedAt: tstz('deactivated_at'),
    /**
     * Bumped when the user's access must end (deactivation, password change or reset, role or tenant
     * change, tenant deletion): access tokens carry it (`sv`) and older ones are refused (docs/auth.md).
     */
    sessionVersion: integer('session_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`), index('users_tenant_idx').on(t.tenantId)],
);

/** Refresh tokens: opaque, stored hashed, rotated on use; a family is one sign-in. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    revokedAt: tstz('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/** Single-use mailed tokens: verify (24 h), reset (1 h), invite (72 h). */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('one_time_tokens_hash_key').on(t.tokenHash), index('one_time_tokens_user_idx').on(t.userId)],
);

/** Login throttling state per key (`acct:<email>` or `ip:<addr>`), shared by every process. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  blockedUntil: tstz('blocked_until'),
  updatedAt: updatedAt(),
});

/** Mail written when SMTP_URL is unset (and a record of what was sent over SMTP). */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  transport: text('transport').notNull(),
  createdAt: createdAt(),
});

/** Short-lived single-use tickets that authenticate an EventSource (no token in the URL). */
export const streamTickets = pgTable('stream_tickets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  expiresAt: tstz('expires_at').notNull(),
  usedAt: tstz('used_at'),
  /** The session of the access token that asked for the ticket (`sv`, `sid`): checked again when it is used. */
  sessionVersion: integer('session_version').notNull().default(0),
  sessionId: text('session_id'),
});

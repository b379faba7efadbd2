import { index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { tenants } from './accounts.ts';
import { createdAt, tenantId, tstz, updatedAt } from './columns.ts';

/** One checkout / subscription record of a tenant (GET /billings). */
export const billings = pgTable(
  'billings',
  {
    tenantId: tenantId().references(() => tenants.id),
    id: serial('id').notNull(),
    provider: text('provider').notNull(),
    sessionId: text('session_id').notNull(),
    subscriptionId: text('subscription_id'),
    /** pending | paid | unpaid | cancelled */
    status: text('status').notNull().default('pending'),
    quantity: integer('quantity').notNull().default(0),
    amountCents: integer('amount_cents').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    periodStart: tstz('period_start'),
    periodEnd: tstz('period_end'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('billings_session_idx').on(t.sessionId)],
);

/** Provider webhook events already handled (idempotent fulfilment). Platform table. */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

/** A periodic job's tick claimed by one process: the row's existence is the claim. Platform table. */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    tick: text('tick').notNull(),
    claimedAt: createdAt(),
    finishedAt: tstz('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.job, t.tick] })],
);

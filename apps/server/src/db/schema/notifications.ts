import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tenantId, tstz, updatedAt } from './columns.ts';

/**
 * A tenant's notification channel (docs/notifications.md): email, signed webhook, Slack or Teams.
 * `target_enc` and `secret_enc` are sealed at rest (security/secret-box.ts) like portal secrets.
 * `to_admins`: an email channel whose recipients are the tenant's Admins at send time (the default
 * "Admins" channel); an edit of its target turns it into a plain address list.
 */
export const notificationChannels = pgTable(
  'notification_channels',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    targetEnc: text('target_enc').notNull(),
    secretEnc: text('secret_enc'),
    toAdmins: boolean('to_admins').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    events: text('events').array().notNull(),
    portalIds: integer('portal_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    delayMinutes: integer('delay_minutes').notNull().default(5),
    repeatMinutes: integer('repeat_minutes').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Deleted channels stay (their delivery log keeps their name) but announce nothing more. */
    deletedAt: tstz('deleted_at'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('notification_channels_id_idx').on(t.id)],
);

/**
 * One announcement of one alert event (or a test) to one channel, sent at least once. `seq` numbers
 * the repeats of an alert (0 for opened/resolved), so the unique key makes announcing idempotent.
 * A sender claims a due row by setting `claimed_until` (FOR UPDATE SKIP LOCKED), sends outside the
 * transaction, then records the attempt only if its `claim_token` still holds the row.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    tenantId: tenantId(),
    id: serial('id').notNull(),
    channelId: integer('channel_id').notNull(),
    alertId: integer('alert_id'),
    event: text('event').notNull(),
    seq: integer('seq').notNull().default(0),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull(),
    claimedUntil: tstz('claimed_until'),
    claimToken: text('claim_token'),
    lastError: text('last_error'),
    /** The event's data as announced (webhook payload `data`), so every retry sends the same content. */
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
    sentAt: tstz('sent_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.channelId], foreignColumns: [notificationChannels.tenantId, notificationChannels.id] }),
    uniqueIndex('notification_deliveries_announce_key').on(t.tenantId, t.channelId, t.alertId, t.event, t.seq),
    index('notification_deliveries_id_idx').on(t.id),
    index('notification_deliveries_list_idx').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    index('notification_deliveries_alert_idx').on(t.tenantId, t.alertId),
    // The senders' claim reads only the pending rows, in due order.
    index('notification_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

import { randomUUID } from 'node:crypto';
import type { DeliveryEvent, DeliveryStatus, NotificationDelivery } from '@vigil/contracts';
import type { Executor } from '../../db/client.ts';
import { allTenants, inScope, type Scope } from '../../db/scope.ts';
import { toIso, toIsoOrNull } from '../../db/sql-fragments.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { adminEmails, type ChannelRow } from './channels.repository.ts';
import { openTarget } from './channels.service.ts';
import * as repo from './deliveries.repository.ts';
import type { PayloadData } from './messages.ts';
import { sendOnce, SendFailure, SEND_TIMEOUT_MS } from './transport.ts';

/**
 * Delivery (docs/notifications.md "Delivery"): at least once, with exponential backoff. The first
 * retry comes 30 s after the first failure, each wait doubles, and the 8th failed attempt (about 64
 * minutes after the first) is final; so is a 4xx other than 408/429 or a refused target.
 */
export const MAX_ATTEMPTS = 8;
export const FIRST_RETRY_MS = 30_000;
export const retryDelayMs = (failedAttempts: number) => FIRST_RETRY_MS * 2 ** (failedAttempts - 1);
/** How long a sender holds a claimed delivery: well beyond a send's timeout, so no second sender takes it meanwhile. */
export const CLAIM_MS = 6 * SEND_TIMEOUT_MS;
/** Deliveries claimed per round, and sent at once. */
const CLAIM_BATCH = 100;
const PARALLEL_SENDS = 16;
/** Devices carried in a payload (the alert's `offlineCount` says how many it holds). */
export const PAYLOAD_DEVICES_MAX = 100;
const DAY_MS = 86_400_000;

type Deps = Pick<AppDeps, 'database' | 'clock' | 'config' | 'secretBox' | 'mailer' | 'log'>;

export const alertUrlOf = (deps: Pick<AppDeps, 'config'>, alertId: number) => `${deps.config.publicUrl}/dashboards/alerts/${alertId}`;

function payloadOf(deps: Deps, f: repo.AlertFacts, now: Date): PayloadData {
  const createdAt = toIso(f.created_at);
  const open = f.resolved_at === null;
  const status = !open ? 0 : f.critical > 0 || now.getTime() - new Date(createdAt).getTime() > DAY_MS ? 2 : 1;
  return {
    alert: {
      id: f.id,
      alertType: f.alert_type,
      customerId: f.portal_id,
      customerName: f.portal_name,
      offlineCount: f.offline_count,
      status,
      createdAt,
      resolvedAt: toIsoOrNull(f.resolved_at),
      ackedAt: toIsoOrNull(f.acked_at),
    },
    devices: (f.devices ?? []).map((d) => ({
      id: d.id,
      name: d.name,
      deviceType: d.deviceType,
      deviceModel: d.deviceModel || null,
      status: d.status,
      lastOnline: d.lastOnline ? new Date(d.lastOnline).toISOString() : null,
    })),
    url: alertUrlOf(deps, f.id),
  };
}

/**
 * Stores the announcements due now (deliveries.repository.ts dueAnnouncements) with their payloads,
 * idempotently: an announcement already stored is not stored again. Returns how many were added.
 */
export async function announce(deps: Deps, now: Date): Promise<number> {
  return inScope(deps.database.db, allTenants, async (tx) => {
    const due = await repo.dueAnnouncements(tx, now);
    if (due.length === 0) return 0;
    const keys = [...new Map(due.map((d) => [`${d.tenant_id}:${d.alert_id}`, { tenantId: d.tenant_id, alertId: d.alert_id }])).values()];
    const facts = new Map((await repo.alertFacts(tx, keys, PAYLOAD_DEVICES_MAX)).map((f) => [`${f.tenant_id}:${f.id}`, f]));
    const rows = due.flatMap((d) => {
      const f = facts.get(`${d.tenant_id}:${d.alert_id}`);
      return f
        ? [
            {
              tenantId: d.tenant_id,
              channelId: d.channel_id,
              alertId: d.alert_id,
              event: d.event,
              seq: Number(d.seq),
              payload: payloadOf(deps, f, now),
            },
          ]
        : [];
    });
    return (await repo.insertDeliveries(tx, rows, now)).length;
  });
}

async function recipientsOf(tx: Executor, claimed: { tenant_id: number; to_admins: boolean }[]) {
  return adminEmails(tx, [...new Set(claimed.filter((c) => c.to_admins).map((c) => c.tenant_id))]);
}

interface Attempt {
  tenant_id: number;
  id: number;
  event: string;
  attempts: number;
  payload: unknown;
  created_at: Date | string;
  channel_type: string;
  channel_name: string;
  target_enc: string;
  secret_enc: string | null;
  to_admins: boolean;
}

/** One attempt: the outcome to record (sent, retry later, or failed for good). */
async function attempt(deps: Deps, d: Attempt, admins: Map<number, string[]>, retries: boolean): Promise<repo.AttemptOutcome> {
  const now = () => deps.clock.now();
  try {
    await sendOnce(
      { mailer: deps.mailer, allowPrivate: deps.config.notifyAllowPrivateTargets },
      {
        deliveryId: d.id,
        event: d.event as DeliveryEvent,
        createdAt: new Date(d.created_at),
        data: d.payload as PayloadData,
        channelName: d.channel_name,
        type: d.channel_type,
        target: d.to_admins ? (admins.get(d.tenant_id) ?? []) : openTarget(deps.secretBox, d.target_enc),
        secret: d.secret_enc ? deps.secretBox.open(d.secret_enc) : null,
      },
    );
    return { status: 'sent', counted: true, error: null, nextAttemptAt: null };
  } catch (err) {
    const failure = err instanceof SendFailure ? err : new SendFailure((err as Error).message || 'Send failed', false);
    const failed = d.attempts + 1;
    if (!retries || failure.final || failed >= MAX_ATTEMPTS)
      return { status: 'failed', counted: true, error: failure.message, nextAttemptAt: null };
    return { status: 'pending', counted: true, error: failure.message, nextAttemptAt: new Date(now().getTime() + retryDelayMs(failed)) };
  }
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

/**
 * One sender round: claims the due deliveries (none that another sender holds), sends them outside
 * any transaction, and records each attempt while the claim still holds. A process that stops
 * mid-send leaves its claims to lapse; another sender then sends again with the same `webhook-id`.
 * Returns how many deliveries it claimed.
 */
export async function sendDue(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const token = randomUUID();
  const { claimed, admins, names } = await inScope(deps.database.db, allTenants, async (tx) => {
    const rows = await repo.claimDue(tx, now, new Date(now.getTime() + CLAIM_MS), token, CLAIM_BATCH);
    const channelNames = await repo.channelNames(
      tx,
      rows.map((r) => ({ tenantId: r.tenant_id, id: r.channel_id })),
    );
    return { claimed: rows, admins: await recipientsOf(tx, rows), names: channelNames };
  });
  await inBatches(claimed, PARALLEL_SENDS, async (d) => {
    const outcome: repo.AttemptOutcome = d.channel_live
      ? await attempt(deps, { ...d, channel_name: names.get(`${d.tenant_id}:${d.channel_id}`) ?? '' }, admins, true)
      : { status: 'failed', counted: false, error: 'Channel disabled', nextAttemptAt: null };
    try {
      await inScope(deps.database.db, allTenants, (tx) => repo.recordAttempt(tx, d.tenant_id, d.id, token, outcome, deps.clock.now()));
    } catch (err) {
      // The claim lapses and the delivery is sent again later (at least once).
      deps.log.warn({ err, deliveryId: d.id }, 'notification attempt not recorded');
    }
  });
  return claimed.length;
}

/** Sends until nothing due is left (tests, and a round after announcing). */
export async function sendAllDue(deps: Deps): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await sendDue(deps);
    total += n;
    if (n < CLAIM_BATCH) return total;
  }
}

function presentDelivery(row: repo.DeliveryRow): NotificationDelivery {
  return {
    id: row.id,
    channelId: row.channel_id,
    channelName: row.channel_name,
    alertId: row.alert_id,
    event: row.event as DeliveryEvent,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: toIso(row.created_at),
    sentAt: toIsoOrNull(row.sent_at),
  };
}

export async function listDeliveries(
  tx: Executor,
  scope: Scope,
  query: Parameters<typeof repo.listDeliveries>[2],
): Promise<{ list: NotificationDelivery[]; count: number }> {
  const { rows, count } = await repo.listDeliveries(tx, scope, query);
  return { list: rows.map(presentDelivery), count };
}

/** What a test message shows: an example alert of one offline device. */
function testPayload(deps: Deps, now: Date): PayloadData {
  const iso = now.toISOString();
  return {
    alert: {
      id: 0,
      alertType: 0,
      customerId: 0,
      customerName: 'Example portal',
      offlineCount: 1,
      status: 1,
      createdAt: iso,
      resolvedAt: null,
      ackedAt: null,
    },
    devices: [{ id: 0, name: 'Example camera', deviceType: 0, deviceModel: 'Example model', status: 0, lastOnline: iso }],
    url: `${deps.config.publicUrl}/dashboards/alerts`,
  };
}

/**
 * The Test button: a `test` delivery stored already claimed by this request (no sender takes it),
 * one attempt now, its result recorded (no retry) and answered.
 */
export async function sendTest(
  deps: Deps,
  tx: <T>(fn: (tx: Executor) => Promise<T>) => Promise<T>,
  channel: ChannelRow,
): Promise<NotificationDelivery> {
  const now = deps.clock.now();
  const token = randomUUID();
  const payload = testPayload(deps, now);
  const [created] = await tx((t) =>
    repo.insertClaimedDelivery(
      t,
      { tenantId: channel.tenant_id, channelId: channel.id, alertId: null, event: 'test', seq: 0, payload },
      now,
      new Date(now.getTime() + CLAIM_MS),
      token,
    ),
  );
  const admins = channel.to_admins ? await tx((t) => adminEmails(t, [channel.tenant_id])) : new Map<number, string[]>();
  const outcome = await attempt(
    deps,
    {
      tenant_id: channel.tenant_id,
      id: created.id,
      event: 'test',
      attempts: 0,
      payload,
      created_at: now,
      channel_type: channel.type,
      channel_name: channel.name,
      target_enc: channel.target_enc,
      secret_enc: channel.secret_enc,
      to_admins: channel.to_admins,
    },
    admins,
    false,
  );
  return tx(async (t) => {
    await repo.recordAttempt(t, channel.tenant_id, created.id, token, outcome, deps.clock.now());
    const row = await repo.findDelivery(t, channel.tenant_id, created.id);
    if (!row) throw notFound();
    return presentDelivery(row);
  });
}

import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { allOf, at, inTenant, orderBy, pageOf } from '../../db/sql-list.ts';

/** A delivery as the log shows it. */
export interface DeliveryRow {
  id: number;
  channel_id: number;
  channel_name: string;
  alert_id: number | null;
  event: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
}

const SORT = {
  id: sql`d.id`,
  createdAt: sql`d.created_at`,
  sentAt: sql`d.sent_at`,
  status: sql`d.status`,
  event: sql`d.event`,
  attempts: sql`d.attempts`,
  channelName: sql`lower(c.name)`,
};
export type DeliverySortField = keyof typeof SORT;

export interface DeliveryFilter {
  channelId?: number;
  alertId?: number;
  status?: string;
}

function whereOf(scope: Scope, f: DeliveryFilter): SQL {
  const parts = [inTenant(scope, sql`d.tenant_id`)];
  if (f.channelId !== undefined) parts.push(sql`d.channel_id = ${f.channelId}`);
  if (f.alertId !== undefined) parts.push(sql`d.alert_id = ${f.alertId}`);
  if (f.status !== undefined) parts.push(sql`d.status = ${f.status}`);
  return allOf(parts);
}

const FROM = sql`from notification_deliveries d join notification_channels c on c.tenant_id = d.tenant_id and c.id = d.channel_id`;
const COLUMNS = sql`d.id, d.channel_id, c.name as channel_name, d.alert_id, d.event, d.status, d.attempts, d.last_error, d.created_at, d.sent_at`;

export async function listDeliveries(
  ex: Executor,
  scope: Scope,
  q: { filter: DeliveryFilter; sort?: { field: DeliverySortField; dir: 'ASC' | 'DESC' }; offset: number; limit: number },
): Promise<{ rows: DeliveryRow[]; count: number }> {
  const sort = q.sort ?? { field: 'createdAt' as const, dir: 'DESC' as const };
  const rows = await queryRows<DeliveryRow & { full_count: number | string }>(
    ex,
    sql`select ${COLUMNS}, count(*) over () as full_count ${FROM} where ${whereOf(scope, q.filter)}
        ${orderBy(sort, SORT, sql`d.id desc`)} ${pageOf(q)}`,
  );
  if (rows.length > 0) return { rows, count: Number(rows[0].full_count) };
  const [n] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n ${FROM} where ${whereOf(scope, q.filter)}`);
  return { rows: [], count: Number(n?.n ?? 0) };
}

export async function findDelivery(ex: Executor, tenantId: number, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await queryRows<DeliveryRow>(ex, sql`select ${COLUMNS} ${FROM} where d.tenant_id = ${tenantId} and d.id = ${id}`);
  return row;
}

/** One announcement the rules found due: which channel, alert and event (and repeat number). */
export interface Announcement {
  tenant_id: number;
  channel_id: number;
  alert_id: number;
  event: 'alert.opened' | 'alert.resolved' | 'alert.repeated';
  seq: number;
}

/**
 * The announcements due now over every tenant (docs/notifications.md "When a channel speaks"), per
 * enabled channel and alert of its portals created since the channel:
 * - `alert.opened` once the alert has been open for the channel's delay (an alert resolved within
 *   the delay, a flap, is never announced);
 * - `alert.resolved` for a resolved alert that was open at least the delay, after its `alert.opened`
 *   when the channel announces openings;
 * - `alert.repeated` while open and not acknowledged, every repeat interval after the last announcement.
 * Alerts resolved more than a day ago, or opened more than 30 days ago, are not looked at: each tick
 * reads a tenant's alerts of the last 30 days at most (alerts_tenant_created_idx), not its whole history.
 */
export async function dueAnnouncements(ex: Executor, now: Date): Promise<Announcement[]> {
  return queryRows<Announcement>(
    ex,
    sql`with ch as materialized (
          select c.tenant_id, c.id, c.events, c.portal_ids, make_interval(mins => c.delay_minutes) as delay,
                 make_interval(mins => c.repeat_minutes) as repeat, c.created_at
            from notification_channels c join tenants t on t.id = c.tenant_id and t.deleted_at is null
           where c.deleted_at is null and c.enabled),
        pairs as materialized (
          select ch.tenant_id, ch.id as channel_id, ch.events, ch.delay, ch.repeat, a.id as alert_id, a.created_at, a.resolved_at, a.acked_at
            from ch join alerts a on a.tenant_id = ch.tenant_id
           where (a.resolved_at is null or a.resolved_at >= ${at(now)} - interval '1 day')
             and a.created_at >= ch.created_at and a.created_at >= ${at(now)} - interval '30 days'
             and a.created_at + ch.delay <= ${at(now)}
             and (a.resolved_at is null or a.resolved_at >= a.created_at + ch.delay)
             and (cardinality(ch.portal_ids) = 0 or a.portal_id = any(ch.portal_ids))),
        sent as materialized (
          select d.tenant_id, d.channel_id, d.alert_id,
                 bool_or(d.event = 'alert.opened') as opened, bool_or(d.event = 'alert.resolved') as resolved,
                 max(d.created_at) filter (where d.event in ('alert.opened', 'alert.repeated')) as last_at,
                 coalesce(max(d.seq) filter (where d.event = 'alert.repeated'), 0) as last_seq
            from notification_deliveries d
            join pairs p on p.tenant_id = d.tenant_id and p.channel_id = d.channel_id and p.alert_id = d.alert_id
           group by d.tenant_id, d.channel_id, d.alert_id)
        select p.tenant_id, p.channel_id, p.alert_id, 'alert.opened' as event, 0 as seq
          from pairs p left join sent s on s.tenant_id = p.tenant_id and s.channel_id = p.channel_id and s.alert_id = p.alert_id
         where 'alert.opened' = any(p.events) and not coalesce(s.opened, false)
        union all
        select p.tenant_id, p.channel_id, p.alert_id, 'alert.resolved', 0
          from pairs p left join sent s on s.tenant_id = p.tenant_id and s.channel_id = p.channel_id and s.alert_id = p.alert_id
         where 'alert.resolved' = any(p.events) and p.resolved_at is not null and not coalesce(s.resolved, false)
           and (not 'alert.opened' = any(p.events) or coalesce(s.opened, false))
        union all
        select p.tenant_id, p.channel_id, p.alert_id, 'alert.repeated', s.last_seq + 1
          from pairs p join sent s on s.tenant_id = p.tenant_id and s.channel_id = p.channel_id and s.alert_id = p.alert_id
         where 'alert.repeated' = any(p.events) and p.repeat > interval '0' and p.resolved_at is null and p.acked_at is null
           and s.opened and s.last_at + p.repeat <= ${at(now)}
        order by 1, 3, 2`,
  );
}

/** What a message needs of an alert: the alert, its portal, and its devices (at most `maxDevices`). */
export interface AlertFacts {
  tenant_id: number;
  id: number;
  alert_type: number;
  portal_id: number;
  portal_name: string;
  offline_count: number;
  created_at: Date | string;
  resolved_at: Date | string | null;
  acked_at: Date | string | null;
  critical: number;
  devices: { id: number; name: string; deviceType: number; deviceModel: string; status: number; lastOnline: string | null }[] | null;
}

export async function alertFacts(ex: Executor, keys: { tenantId: number; alertId: number }[], maxDevices: number): Promise<AlertFacts[]> {
  if (keys.length === 0) return [];
  return queryRows<AlertFacts>(
    ex,
    sql`select a.tenant_id, a.id, a.alert_type, a.portal_id, p.name as portal_name, a.offline_count, a.created_at, a.resolved_at,
               a.acked_at, a.critical,
               (select json_agg(json_build_object('id', d.id, 'name', d.name, 'deviceType', d.device_type, 'deviceModel', d.device_model,
                        'status', d.status, 'lastOnline', d.last_online) order by d.name, d.id)
                  from (select d.* from alert_devices ad join devices d on d.tenant_id = ad.tenant_id and d.id = ad.device_id
                         where ad.tenant_id = a.tenant_id and ad.alert_id = a.id order by d.name, d.id limit ${maxDevices}) d) as devices
          from alerts a join portals p on p.tenant_id = a.tenant_id and p.id = a.portal_id
         where (a.tenant_id, a.id) in (select * from unnest(${sql.param(keys.map((k) => k.tenantId))}::int[], ${sql.param(keys.map((k) => k.alertId))}::int[]))`,
  );
}

export interface NewDelivery {
  tenantId: number;
  channelId: number;
  alertId: number | null;
  event: string;
  seq: number;
  payload: unknown;
}

/** Inserts the deliveries; one already stored for the same channel, alert, event and repeat is kept as is. */
export async function insertDeliveries(ex: Executor, rows: NewDelivery[], now: Date): Promise<{ tenant_id: number; id: number }[]> {
  if (rows.length === 0) return [];
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.tenantId}::int, ${r.channelId}::int, ${r.alertId}::int, ${r.event}, ${r.seq}::int, 'pending', ${at(now)}, ${JSON.stringify(r.payload)}::jsonb, ${at(now)}, ${at(now)})`,
    ),
    sql`, `,
  );
  return queryRows(
    ex,
    sql`insert into notification_deliveries (tenant_id, channel_id, alert_id, event, seq, status, next_attempt_at, payload, created_at, updated_at)
        values ${values}
        on conflict (tenant_id, channel_id, alert_id, event, seq) do nothing
        returning tenant_id, id`,
  );
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  tenant_id: number;
  id: number;
  channel_id: number;
  alert_id: number | null;
  event: string;
  attempts: number;
  payload: unknown;
  created_at: Date | string;
  channel_type: string;
  target_enc: string;
  secret_enc: string | null;
  to_admins: boolean;
  channel_live: boolean;
}

/**
 * Claims up to `limit` due deliveries for this sender until `until` (FOR UPDATE SKIP LOCKED: two
 * senders never take the same row; a row whose claim has lapsed, its sender gone, is due again).
 */
export async function claimDue(ex: Executor, now: Date, until: Date, token: string, limit: number): Promise<ClaimedDelivery[]> {
  return queryRows<ClaimedDelivery>(
    ex,
    sql`with due as (
          select tenant_id, id from notification_deliveries
           where status = 'pending' and next_attempt_at <= ${at(now)} and (claimed_until is null or claimed_until < ${at(now)})
           order by next_attempt_at, id
           limit ${limit}
           for update skip locked),
        claimed as (
          update notification_deliveries d set claimed_until = ${at(until)}, claim_token = ${token}
            from due where d.tenant_id = due.tenant_id and d.id = due.id
          returning d.tenant_id, d.id, d.channel_id, d.alert_id, d.event, d.attempts, d.payload, d.created_at)
        select cl.*, c.type as channel_type, c.target_enc, c.secret_enc, c.to_admins, (c.deleted_at is null and c.enabled) as channel_live
          from claimed cl join notification_channels c on c.tenant_id = cl.tenant_id and c.id = cl.channel_id
         order by cl.id`,
  );
}

export interface AttemptOutcome {
  status: 'pending' | 'sent' | 'failed';
  /** Counted: false when the attempt never reached the target's network (channel gone). */
  counted: boolean;
  error: string | null;
  nextAttemptAt: Date | null;
}

/** Records an attempt, only while this sender's claim still holds the row. Returns whether it did. */
export async function recordAttempt(
  ex: Executor,
  tenantId: number,
  id: number,
  token: string,
  o: AttemptOutcome,
  now: Date,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    ex,
    sql`update notification_deliveries set status = ${o.status}, attempts = attempts + ${o.counted ? 1 : 0}, last_error = ${o.error},
          next_attempt_at = coalesce(${o.nextAttemptAt ? at(o.nextAttemptAt) : null}::timestamptz, next_attempt_at),
          sent_at = ${o.status === 'sent' ? at(now) : null}::timestamptz, claimed_until = null, claim_token = null, updated_at = ${at(now)}
         where tenant_id = ${tenantId} and id = ${id} and claim_token = ${token} and status = 'pending'
         returning id`,
  );
  return rows.length === 1;
}

/** The earliest time a pending delivery becomes due (to wake the sender then), or null. */
export async function nextDueAt(ex: Executor): Promise<Date | null> {
  const [row] = await queryRows<{ at: Date | string | null }>(
    ex,
    sql`select min(next_attempt_at) as at from notification_deliveries where status = 'pending'`,
  );
  return row?.at ? new Date(row.at) : null;
}

/** Names of the given channels, keyed `tenant:id`. */
export async function channelNames(ex: Executor, keys: { tenantId: number; id: number }[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await queryRows<{ tenant_id: number; id: number; name: string }>(
    ex,
    sql`select c.tenant_id, c.id, c.name from notification_channels c
         where (c.tenant_id, c.id) in (select * from unnest(${sql.param(keys.map((k) => k.tenantId))}::int[], ${sql.param(keys.map((k) => k.id))}::int[]))`,
  );
  return new Map(rows.map((r) => [`${r.tenant_id}:${r.id}`, r.name]));
}

/** A delivery stored already claimed by its creator (the Test button sends it at once). */
export async function insertClaimedDelivery(
  ex: Executor,
  r: NewDelivery,
  now: Date,
  until: Date,
  token: string,
): Promise<{ tenant_id: number; id: number }[]> {
  return queryRows(
    ex,
    sql`insert into notification_deliveries
          (tenant_id, channel_id, alert_id, event, seq, status, next_attempt_at, payload, claimed_until, claim_token, created_at, updated_at)
        values (${r.tenantId}, ${r.channelId}, ${r.alertId}::int, ${r.event}, ${r.seq}, 'pending', ${at(now)}, ${JSON.stringify(r.payload)}::jsonb,
                ${at(until)}, ${token}, ${at(now)}, ${at(now)})
        returning tenant_id, id`,
  );
}

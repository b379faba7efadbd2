import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { runCommands } from '../../db/commands.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { at } from '../../db/sql-list.ts';
import { TOPICS, type AlertOpenedEvent } from '../../events/topics.ts';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from '../../db/offline-periods.ts';
import { DEVICE_OFFLINE_ALERT, OFFLINE } from '../../db/codes.ts';

/** Serializes the alert rules across processes (a slow tick never overlaps the next one's writes). */
export const ALERT_RULES_LOCK = 0x76_69_67_01;

export const lockAlertRules = (tx: Tx) => tx.execute(sql`select pg_advisory_xact_lock(${ALERT_RULES_LOCK})`);

/**
 * An open Device Offline alert (alias `a`): the rules read only these, through their partial index
 * alerts_open_offline_idx (migration 0007) instead of scanning every alert (200,000 at size L) each tick.
 */
export const OPEN_OFFLINE_ALERT = sql`a.alert_type = ${DEVICE_OFFLINE_ALERT} and a.resolved_at is null`;

/**
 * The "Device Offline" rules of docs/decisions.md 29, over every tenant, in one transaction and one
 * statement:
 * 1. an open type-0 alert none of whose devices is still offline (back online, removed, or of a
 *    deleted portal) is resolved;
 * 2. per portal, offline devices not held by an open type-0 alert open one new alert holding them
 *    (announced at commit). Resolving first or not changes nothing here: an alert it resolves holds
 *    no offline device.
 * Returns the ids of the alerts opened. Run through the job's tick claim.
 *
 * Why one statement, prepared, read from the open alerts: the rule runs every 5 s. Per portal (an
 * insert, its announcement, the held devices, the count: 4 statements each) a storm of webhooks
 * turning 3,000 devices of 50 portals offline held PGlite's one session for 0.3-1.3 s per tick while
 * every webhook waited. Then, as two statements, the planner hashed every alert_devices row ever
 * written (20,000 at S, 237,000 at L after the bench's storms, growing with each alert) twice per
 * tick. The open alerts' devices are now read per open alert through the key of alert_devices
 * (`offset 0` keeps that lateral subquery a per-alert lookup: the planner, guessing several times
 * too many open alerts, would otherwise hash the whole table again), then hashed against the
 * offline devices. A tick with nothing to do: S on PGlite, 2,100 devices offline, 62-69 -> 20-31
 * ms; L on PostgreSQL, 43,000 offline held by 2,600 open alerts, 125-131 -> 79-93 ms.
 */
export async function applyOfflineAlertRules(deps: Pick<AppDeps, 'database' | 'bus'>, now: Date): Promise<number[]> {
  return inScope(deps.database.db, allTenants, async (tx) => {
    await lockAlertRules(tx);
    // PostgreSQL compiled this statement with JIT (its cost estimate passes jit_above_cost once
    // thousands of alerts are open): 64 ms of compiling per tick at size L.
    if (deps.database.kind === 'postgres') await runCommands(tx, 'set local jit = off');
    const opened = await deps.database.prepared.rows<AlertOpenedEvent>(
      tx,
      sql`with held as materialized (
            select a.tenant_id, a.id as alert_id, h.device_id
              from alerts a
             cross join lateral (select ad.device_id from alert_devices ad where ad.tenant_id = a.tenant_id and ad.alert_id = a.id offset 0) h
             where ${OPEN_OFFLINE_ALERT}),
          resolved as (
            update alerts a set resolved_at = ${at(now)}, updated_at = ${at(now)}
             where ${OPEN_OFFLINE_ALERT}
               and not exists (
                 select 1 from held h
                   join devices d on d.tenant_id = h.tenant_id and d.id = h.device_id
                   join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id and p.deleted_at is null
                  where h.tenant_id = a.tenant_id and h.alert_id = a.id and d.status = ${OFFLINE} and d.removed_at is null)),
          uncovered as materialized (
            select op.tenant_id, op.portal_id, op.device_id
              from ${OFFLINE_PERIODS}
              join portals p on p.tenant_id = op.tenant_id and p.id = op.portal_id and p.deleted_at is null
              join tenants t on t.id = op.tenant_id and t.deleted_at is null
             where ${IS_OPEN_OFFLINE}
               and not exists (select 1 from held h where h.tenant_id = op.tenant_id and h.device_id = op.device_id)),
          opened as (
            insert into alerts (tenant_id, portal_id, alert_type, offline_count, critical, created_at, updated_at)
            select u.tenant_id, u.portal_id, 0, count(*), 0, ${at(now)}, ${at(now)}
              from uncovered u group by u.tenant_id, u.portal_id order by u.tenant_id, u.portal_id
            returning tenant_id, portal_id, id, offline_count),
          newly_held as (
            insert into alert_devices (tenant_id, alert_id, device_id)
            select o.tenant_id, o.id, u.device_id from opened o join uncovered u on u.tenant_id = o.tenant_id and u.portal_id = o.portal_id)
          select o.tenant_id as "tenantId", o.id as "alertId", o.portal_id as "portalId", p.name as "customerName",
                 0 as "alertType", o.offline_count as "offlineCount"
            from opened o join portals p on p.tenant_id = o.tenant_id and p.id = o.portal_id
           order by o.id`,
    );
    await deps.bus.publishAll(TOPICS.alertOpened, opened, tx);
    return opened.map((a) => a.alertId);
  });
}

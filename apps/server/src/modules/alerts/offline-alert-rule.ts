import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { at } from '../cases/sql-list.ts';
import { TOPICS, type AlertOpenedEvent } from '../../events/topics.ts';

/** Serializes the alert rules across processes (a slow tick never overlaps the next one's writes). */
export const ALERT_RULES_LOCK = 0x76_69_67_01;

export const lockAlertRules = (tx: Tx) => tx.execute(sql`select pg_advisory_xact_lock(${ALERT_RULES_LOCK})`);

/**
 * An open Device Offline alert (alias `a`): the rules read only these, through their partial index
 * alerts_open_offline_idx (migration 0007) instead of scanning every alert (200,000 at size L) each tick.
 */
export const OPEN_OFFLINE_ALERT = sql`a.alert_type = 0 and a.resolved_at is null`;

/**
 * The "Device Offline" rules of decisions §6, over every tenant, in one transaction:
 * 1. an open type-0 alert none of whose devices is still offline (back online or
 *    removed) is resolved;
 * 2. per portal, offline devices not held by an open type-0 alert open one new
 *    alert holding them.
 * Returns the ids of the alerts opened. Run through the job's tick claim.
 */
export async function applyOfflineAlertRules(deps: Pick<AppDeps, 'database' | 'bus'>, now: Date): Promise<number[]> {
  return inScope(deps.database.db, allTenants, async (tx) => {
    await lockAlertRules(tx);
    await tx.execute(sql`
      update alerts a set resolved_at = ${at(now)}, updated_at = ${at(now)}
      where ${OPEN_OFFLINE_ALERT}
        and not exists (
          select 1 from alert_devices ad
          join devices d on d.tenant_id = ad.tenant_id and d.id = ad.device_id
          join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id and p.deleted_at is null
          where ad.tenant_id = a.tenant_id and ad.alert_id = a.id and d.status = 0 and d.removed_at is null)`);

    // Opened set-based, in one statement: one alert per portal, holding the portal's uncovered devices.
    // Per portal (an insert, its announcement, the held devices, the count: 4 statements) a storm of
    // webhooks turning 3,000 devices of 50 portals offline held PGlite's one session for 0.3-1.1 s
    // per tick, and every webhook waited behind it.
    const opened = await queryRows<AlertOpenedEvent>(
      tx,
      sql`with uncovered as materialized (
            select d.tenant_id, d.portal_id, d.id as device_id
              from devices d
              join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id and p.deleted_at is null
              join tenants t on t.id = d.tenant_id and t.deleted_at is null
             where d.status = 0 and d.removed_at is null
               and not exists (
                 select 1 from alert_devices ad join alerts a on a.tenant_id = ad.tenant_id and a.id = ad.alert_id
                  where ad.tenant_id = d.tenant_id and ad.device_id = d.id and ${OPEN_OFFLINE_ALERT})),
          opened as (
            insert into alerts (tenant_id, portal_id, alert_type, offline_count, critical, created_at, updated_at)
            select u.tenant_id, u.portal_id, 0, count(*), 0, ${at(now)}, ${at(now)}
              from uncovered u group by u.tenant_id, u.portal_id order by u.tenant_id, u.portal_id
            returning tenant_id, portal_id, id, offline_count),
          held as (
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

import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { at } from '../cases/sql-list.ts';
import { holdDevices, insertAlert } from './alerts.repository.ts';

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

    const uncovered = await queryRows<{ tenantId: number; portalId: number; customerName: string; deviceId: number }>(
      tx,
      sql`select d.tenant_id as "tenantId", d.portal_id as "portalId", p.name as "customerName", d.id as "deviceId"
          from devices d
          join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id and p.deleted_at is null
          join tenants t on t.id = d.tenant_id and t.deleted_at is null
          where d.status = 0 and d.removed_at is null
            and not exists (
              select 1 from alert_devices ad join alerts a on a.tenant_id = ad.tenant_id and a.id = ad.alert_id
              where ad.tenant_id = d.tenant_id and ad.device_id = d.id and ${OPEN_OFFLINE_ALERT})
          order by d.tenant_id, d.portal_id, d.id`,
    );
    const byPortal = new Map<string, { tenantId: number; portalId: number; customerName: string; deviceIds: number[] }>();
    for (const row of uncovered) {
      const key = `${row.tenantId}:${row.portalId}`;
      const group = byPortal.get(key) ?? { tenantId: row.tenantId, portalId: row.portalId, customerName: row.customerName, deviceIds: [] };
      group.deviceIds.push(row.deviceId);
      byPortal.set(key, group);
    }
    const opened: number[] = [];
    for (const g of byPortal.values()) {
      const alertId = await insertAlert(tx, deps.bus, { tenantId: g.tenantId, portalId: g.portalId, customerName: g.customerName, alertType: 0, offlineCount: g.deviceIds.length, now });
      await holdDevices(tx, g.tenantId, alertId, g.deviceIds);
      opened.push(alertId);
    }
    return opened;
  });
}

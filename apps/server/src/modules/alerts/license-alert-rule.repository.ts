import { ALERT_TYPE, LIMITS } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client.ts';
import type { EventBus } from '../../events/bus.ts';
import { insertAlert } from './alerts.repository.ts';
import { lockAlertRules } from './offline-alert-rule.repository.ts';
import { at } from '../../db/sql-list.ts';
import { daysRemainingSql } from '../../db/license-days.ts';
import { LICENSE_RENEWAL_ALERT } from '../../db/codes.ts';

/** A license is "renewal pending" from 90 days before its end date ... */
export const RENEWAL_WINDOW_DAYS = LIMITS.licenseRenewalDays;
/** ... until 30 days after it: a license that ended longer ago is history, not a pending renewal. */
export const RENEWAL_GRACE_DAYS = 30;

export interface RenewalTarget {
  tenantId?: number;
  portalId?: number;
  licenseId?: number;
}

/**
 * Opens a "License Renewal Pending (90 Days)" alert (type 1) for each license in
 * the window that has never had one: an alert is opened once per license (never
 * again on the next scan, even after it is resolved). The alert counts the
 * license's devices; it is critical when the license has already ended.
 * Returns the ids opened, soonest-ending license first.
 */
export async function openLicenseRenewalAlerts(tx: Tx, bus: EventBus, now: Date, target: RenewalTarget = {}): Promise<number[]> {
  await lockAlertRules(tx);
  const where: SQL[] = [];
  if (target.tenantId !== undefined) where.push(sql`and l.tenant_id = ${target.tenantId}`);
  if (target.portalId !== undefined) where.push(sql`and l.portal_id = ${target.portalId}`);
  if (target.licenseId !== undefined) where.push(sql`and l.id = ${target.licenseId}`);
  const due = await queryRows<{
    tenantId: number;
    licenseId: number;
    portalId: number;
    customerName: string;
    deviceCount: number;
    days: number;
  }>(
    tx,
    sql`select l.tenant_id as "tenantId", l.id as "licenseId", l.portal_id as "portalId", p.name as "customerName",
               l.device_count as "deviceCount", ${daysRemainingSql(now)} as days
        from licenses l
        join portals p on p.tenant_id = l.tenant_id and p.id = l.portal_id and p.deleted_at is null
        join tenants t on t.id = l.tenant_id and t.deleted_at is null
        where ${daysRemainingSql(now)} between ${-RENEWAL_GRACE_DAYS} and ${RENEWAL_WINDOW_DAYS}
          and not exists (select 1 from alerts a where a.tenant_id = l.tenant_id and a.alert_type = ${LICENSE_RENEWAL_ALERT} and a.license_id = l.id)
          ${sql.join(where, sql` `)}
        order by l.end_date, l.id`,
  );
  const opened: number[] = [];
  for (const l of due) {
    opened.push(
      await insertAlert(tx, bus, {
        tenantId: l.tenantId,
        portalId: l.portalId,
        customerName: l.customerName,
        alertType: ALERT_TYPE.licenseRenewal,
        offlineCount: l.deviceCount,
        licenseId: l.licenseId,
        critical: l.days < 0,
        now,
      }),
    );
  }
  return opened;
}

/** A deleted license's open renewal alert is resolved (nothing is left to renew). */
export async function resolveLicenseAlerts(tx: Tx, tenantId: number, licenseId: number, now: Date): Promise<void> {
  await tx.execute(sql`update alerts set resolved_at = ${at(now)}, updated_at = ${at(now)}
                       where tenant_id = ${tenantId} and alert_type = ${LICENSE_RENEWAL_ALERT} and license_id = ${licenseId} and resolved_at is null`);
}

/** How many of the portal's licenses are in the renewal window now (alerted or not). */
export async function countLicensesInWindow(tx: Tx, now: Date, tenantId: number, portalId: number): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    tx,
    sql`select count(*)::int as count from licenses l join tenants t on t.id = l.tenant_id
        where l.tenant_id = ${tenantId} and l.portal_id = ${portalId}
          and ${daysRemainingSql(now)} between ${-RENEWAL_GRACE_DAYS} and ${RENEWAL_WINDOW_DAYS}`,
  );
  return row?.count ?? 0;
}

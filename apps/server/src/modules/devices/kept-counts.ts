import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { tenantCondition } from '../portals/sql-fragments.ts';

/**
 * Totals read from the kept count tables (db/schema/counts.ts, maintained by triggers) instead of
 * counting devices, cases or alerts per request: a few rows per portal, joined to the live portals
 * and tenants so deleted ones drop out exactly as they do from the lists.
 *
 * Each answer also says whether the scope has a deleted portal: only then must a list check each
 * row's portal while it skips rows (the deferred-join pages below stay index-only otherwise).
 */
export interface KeptTotal {
  count: number;
  hasDeletedPortal: boolean;
}

/** Live portals; devices also need a live tenant (cases and alerts are listed as the lists always did, tenant not checked). */
const LIVE = (liveTenant: boolean) => sql`join portals p on p.tenant_id = k.tenant_id and p.id = k.portal_id and p.deleted_at is null
  ${liveTenant ? sql`join tenants t on t.id = k.tenant_id and t.deleted_at is null` : sql``}`;

/** Whether any portal of the scope is soft-deleted (a correlated scalar over the scope's portals). */
const deletedPortalExists = (scope: Scope) =>
  sql`exists (select 1 from portals dp where dp.deleted_at is not null and ${tenantCondition(scope, sql`dp.tenant_id`)})`;

async function keptTotal(executor: Executor, scope: Scope, sum: SQL, from: SQL, conds: SQL[], liveTenant: boolean): Promise<KeptTotal> {
  const where = sql.join([tenantCondition(scope, sql`k.tenant_id`), ...conds], sql` and `);
  const [row] = await queryRows<{ n: number | string | null; deleted: boolean }>(
    executor,
    sql`select (select coalesce(sum(${sum}), 0)::int from ${from} k ${LIVE(liveTenant)} where ${where}) as n, ${deletedPortalExists(scope)} as deleted`,
  );
  return { count: Number(row?.n ?? 0), hasDeletedPortal: row?.deleted === true };
}

/** Devices not removed, optionally of one portal, status (1 online, 0 offline) and type. */
export function keptDeviceTotal(executor: Executor, scope: Scope, f: { customerId?: number; status?: number; deviceType?: number }): Promise<KeptTotal> {
  const sum = f.status === undefined ? sql`k.total` : f.status === 1 ? sql`k.online` : f.status === 0 ? sql`k.total - k.online` : sql`0`;
  const conds: SQL[] = [];
  if (f.customerId !== undefined) conds.push(sql`k.portal_id = ${f.customerId}`);
  if (f.deviceType !== undefined) conds.push(sql`k.device_type = ${f.deviceType}`);
  return keptTotal(executor, scope, sum, sql`device_counts`, conds, true);
}

/** Cases, optionally of one portal, of one status code, or open (below `completed`) / completed. */
export function keptCaseTotal(
  executor: Executor,
  scope: Scope,
  f: { customerId?: number; caseType?: number; open?: boolean; portalNameLike?: string },
  completed: number,
): Promise<KeptTotal> {
  const conds: SQL[] = [];
  if (f.customerId !== undefined) conds.push(sql`k.portal_id = ${f.customerId}`);
  if (f.caseType !== undefined) conds.push(sql`k.case_type = ${f.caseType}`);
  if (f.open === true) conds.push(sql`k.case_type < ${completed}`);
  if (f.open === false) conds.push(sql`k.case_type = ${completed}`);
  if (f.portalNameLike !== undefined) conds.push(sql`p.name ilike ${f.portalNameLike}`);
  return keptTotal(executor, scope, sql`k.total`, sql`case_counts`, conds, false);
}

/** Alerts, optionally of one portal and type, or of portals whose name matches. */
export function keptAlertTotal(executor: Executor, scope: Scope, f: { customerId?: number; alertType?: number; portalNameLike?: string }): Promise<KeptTotal> {
  const conds: SQL[] = [];
  if (f.customerId !== undefined) conds.push(sql`k.portal_id = ${f.customerId}`);
  if (f.alertType !== undefined) conds.push(sql`k.alert_type = ${f.alertType}`);
  if (f.portalNameLike !== undefined) conds.push(sql`p.name ilike ${f.portalNameLike}`);
  return keptTotal(executor, scope, sql`k.total`, sql`alert_counts`, conds, false);
}

/**
 * Condition for a list's inner (row-skipping) query on table alias `alias`: its portal is not deleted.
 * Needed only when the scope has a deleted portal; otherwise `true`, so the skip stays index-only.
 */
export function portalNotDeleted(alias: string, hasDeletedPortal: boolean): SQL {
  if (!hasDeletedPortal) return sql`true`;
  const a = sql.raw(alias);
  return sql`not exists (select 1 from portals dp where dp.tenant_id = ${a}.tenant_id and dp.id = ${a}.portal_id and dp.deleted_at is not null)`;
}

import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { allOf, at, inTenant, orderBy, pageOf } from '../../db/sql-list.ts';

/**
 * SQL of maintenance windows (docs/maintenance.md): the windows themselves and what the API shows of
 * them. The transitions of the devices they cover are in reconcile.repository.ts.
 */

export interface WindowRow {
  tenant_id: number;
  id: number;
  portal_id: number;
  customer_name: string;
  device_ids: number[];
  starts_at: Date | string;
  ends_at: Date | string;
  recurrence: number;
  reason: string;
  created_by_name: string;
  created_at: Date | string;
  in_force: boolean;
  next_starts_at: Date | string | null;
  next_ends_at: Date | string | null;
}

export interface WindowFilter {
  customerId?: number;
  deviceId?: number;
  current?: boolean;
}

const SORT = {
  id: sql`w.id`,
  startsAt: sql`w.starts_at`,
  endsAt: sql`w.ends_at`,
  customerName: sql`lower(p.name)`,
  createdAt: sql`w.created_at`,
};
export type WindowSortField = keyof typeof SORT;

/** A recurring window's step in its zone's wall-clock time. */
const STEP = sql`case when w.recurrence = 1 then interval '1 day' else interval '7 days' end`;

/**
 * The window with its portal and the occurrences around `now`: `cur` the one that started last (it is in
 * force when it has not ended), `nxt` the first to start after now for a recurring window (the one that
 * started last at now + one step, in the tenant's wall-clock time so that a DST change does not skip it).
 * A deleted portal's windows are never shown (they stay in the table, inert: reconcile ignores them).
 */
const FROM = (now: Date) => sql`from maintenance_windows w
  join portals p on p.tenant_id = w.tenant_id and p.id = w.portal_id and p.deleted_at is null
  join tenants t on t.id = w.tenant_id
  left join lateral maintenance_occurrence(w.starts_at, w.ends_at, w.recurrence, t.timezone, ${at(now)}) cur on true
  left join lateral maintenance_occurrence(w.starts_at, w.ends_at, w.recurrence, t.timezone,
    ((${at(now)} at time zone t.timezone) + ${STEP}) at time zone t.timezone) nxt on w.recurrence > 0`;

const COLUMNS = (now: Date) => sql`w.tenant_id, w.id, w.portal_id, p.name as customer_name, w.device_ids, w.starts_at, w.ends_at,
  w.recurrence, w.reason, w.created_by_name, w.created_at,
  coalesce(cur.occ_end > ${at(now)}, false) as in_force,
  case when cur.occ_end > ${at(now)} then cur.occ_start when w.starts_at > ${at(now)} then w.starts_at else nxt.occ_start end as next_starts_at,
  case when cur.occ_end > ${at(now)} then cur.occ_end when w.starts_at > ${at(now)} then w.ends_at else nxt.occ_end end as next_ends_at`;

function whereOf(scope: Scope, f: WindowFilter, now: Date): SQL {
  const parts = [inTenant(scope, sql`w.tenant_id`)];
  if (f.customerId !== undefined) parts.push(sql`w.portal_id = ${f.customerId}`);
  // The whole-portal windows of the device's portal and the windows that list it.
  if (f.deviceId !== undefined)
    parts.push(sql`(${f.deviceId}::int = any(w.device_ids)
      or (cardinality(w.device_ids) = 0
          and w.portal_id = (select d.portal_id from devices d where d.tenant_id = w.tenant_id and d.id = ${f.deviceId}::int)))`);
  // Current: a window that can still cover a device (recurring, or a one-off that has not ended).
  if (f.current !== undefined) {
    const current = sql`(w.recurrence > 0 or w.ends_at > ${at(now)})`;
    parts.push(f.current ? current : sql`not ${current}`);
  }
  return allOf(parts);
}

export async function listWindows(
  ex: Executor,
  scope: Scope,
  q: { filter: WindowFilter; sort?: { field: WindowSortField; dir: 'ASC' | 'DESC' }; offset: number; limit: number },
  now: Date,
): Promise<{ rows: WindowRow[]; count: number }> {
  const rows = await queryRows<WindowRow & { full_count: number | string }>(
    ex,
    sql`select ${COLUMNS(now)}, count(*) over () as full_count ${FROM(now)}
         where ${whereOf(scope, q.filter, now)}
         ${orderBy(q.sort, SORT, sql`w.id asc`)} ${pageOf(q)}`,
  );
  if (rows.length > 0) return { rows, count: Number(rows[0].full_count) };
  const [n] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from maintenance_windows w
          join portals p on p.tenant_id = w.tenant_id and p.id = w.portal_id and p.deleted_at is null
         where ${whereOf(scope, q.filter, now)}`,
  );
  return { rows: [], count: Number(n?.n ?? 0) };
}

export async function findWindow(ex: Executor, scope: Scope, id: number, now: Date, forUpdate = false): Promise<WindowRow | undefined> {
  const [row] = await queryRows<WindowRow>(
    ex,
    sql`select ${COLUMNS(now)} ${FROM(now)} where w.id = ${id} and ${whereOf(scope, {}, now)} ${forUpdate ? sql`for update of w` : sql``}`,
  );
  return row;
}

/** Whether the tenant has this portal (not deleted). */
export async function portalExists(ex: Executor, tenantId: number, portalId: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    ex,
    sql`select p.id from portals p where p.tenant_id = ${tenantId} and p.id = ${portalId} and p.deleted_at is null`,
  );
  return rows.length > 0;
}

/** How many of `ids` are current (not removed) devices of the tenant's portal. */
export async function countPortalDevices(ex: Executor, tenantId: number, portalId: number, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from devices d
         where d.tenant_id = ${tenantId} and d.id = any(${sql.param(ids)}::int[]) and d.portal_id = ${portalId} and d.removed_at is null`,
  );
  return Number(row?.n ?? 0);
}

export interface WindowValues {
  deviceIds: number[];
  startsAt: string;
  endsAt: string;
  recurrence: number;
  reason: string;
}

/** Inserts a window; its creator's name is the user's current name (as an alert's acknowledger's). */
export async function insertWindow(
  ex: Executor,
  tenantId: number,
  portalId: number,
  v: WindowValues,
  user: { userId: number; userName: string },
  now: Date,
): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    ex,
    sql`insert into maintenance_windows
          (tenant_id, portal_id, device_ids, starts_at, ends_at, recurrence, reason, created_by_user_id, created_by_name, created_at, updated_at)
        values (${tenantId}, ${portalId}, ${sql.param(v.deviceIds)}::int[], ${v.startsAt}::timestamptz, ${v.endsAt}::timestamptz,
                ${v.recurrence}, ${v.reason}, ${user.userId},
                coalesce((select u.name from users u where u.id = ${user.userId}), ${user.userName}), ${at(now)}, ${at(now)})
        returning id`,
  );
  return Number(row.id);
}

export async function updateWindow(ex: Executor, tenantId: number, id: number, v: WindowValues, now: Date): Promise<void> {
  await ex.execute(
    sql`update maintenance_windows set device_ids = ${sql.param(v.deviceIds)}::int[], starts_at = ${v.startsAt}::timestamptz,
          ends_at = ${v.endsAt}::timestamptz, recurrence = ${v.recurrence}, reason = ${v.reason}, updated_at = ${at(now)}
        where tenant_id = ${tenantId} and id = ${id}`,
  );
}

export async function deleteWindow(ex: Executor, tenantId: number, id: number): Promise<void> {
  await ex.execute(sql`delete from maintenance_windows where tenant_id = ${tenantId} and id = ${id}`);
}

import { DEVICE_STATUS } from '@vigil/contracts';
import type { DeviceSortField } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { tenantScope, type Scope } from '../../db/scope.ts';
import { inPageOrder, limitOf, pageLimit, pageOf, pageOrder, planPage, type PageEnd, type PagePlan } from '../../db/sql-list.ts';
import { deletedPortalExists, orderVersionOf, portalNotDeleted } from '../../db/kept-counts.ts';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from '../../db/offline-periods.ts';
import { containsPattern, tenantCondition } from '../../db/sql-fragments.ts';
import { NAME_MARK_EVERY, type MarkedStart, type NameMarks } from './name-marks.ts';
import type { SortBound } from './sort-bounds.ts';

export interface DeviceRow {
  id: number;
  name: string;
  device_type: number;
  device_model: string;
  status: number;
  last_online: Date | string | null;
  open_case_id: number | null;
  in_maintenance: boolean;
  portal_id: number;
  customer_name: string;
  tenant_name: string;
  created_at: Date | string;
  /** In a bounded order: the sort column's value as PostgreSQL's text, exact (a kept bound's key). */
  sort_key?: string | null;
}

export interface DeviceFilter {
  scope: Scope;
  id?: number;
  customerId?: number;
  caseId?: number;
  alertId?: number;
  status?: number;
  deviceType?: number;
  q?: string;
}

const SORT_SQL: Record<DeviceSortField, SQL> = {
  name: sql`d.name_key`,
  deviceType: sql`d.device_type`,
  deviceModel: sql`lower(d.device_model)`,
  status: sql`d.status`,
  lastOnline: sql`d.last_online`,
  customerName: sql`lower(p.name)`,
  createdAt: sql`d.created_at`,
};

const FROM = sql`from devices d
  join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id
  join tenants t on t.id = d.tenant_id`;

const COLUMNS = sql`d.id, d.name, d.device_type, d.device_model, d.status, d.last_online, d.open_case_id,
  (d.maintenance_since is not null) as in_maintenance, d.portal_id,
  p.name as customer_name, t.name as tenant_name, d.created_at`;

/**
 * The orders read through kept bounds (sort-bounds.ts): those on a column no index serves. Each with the
 * column its sort expression reads and the expression's type, to read a key's text back. The name order
 * has its index and marks; the portal's name is not on the device row.
 */
const BOUNDED_SORTS: Partial<Record<DeviceSortField, { column: SQL; type: SQL }>> = {
  lastOnline: { column: sql`d.last_online`, type: sql.raw('timestamptz') },
  createdAt: { column: sql`d.created_at`, type: sql.raw('timestamptz') },
  deviceModel: { column: sql`d.device_model`, type: sql.raw('text') },
  status: { column: sql`d.status`, type: sql.raw('smallint') },
  deviceType: { column: sql`d.device_type`, type: sql.raw('smallint') },
};

export const isBoundedSort = (field: DeviceSortField): boolean => BOUNDED_SORTS[field] !== undefined;

/** A page's columns: in a bounded order, with the exact key a bound is kept from (`sort_key`). */
const columnsOf = (sort: { field: DeviceSortField }): SQL =>
  isBoundedSort(sort.field) ? sql`${COLUMNS}, (${SORT_SQL[sort.field]})::text as sort_key` : COLUMNS;

/** Conditions on the device row alone (no portal or tenant columns). */
function deviceOnly(f: DeviceFilter): SQL {
  const parts = [sql`d.removed_at is null`, tenantCondition(f.scope, sql`d.tenant_id`)];
  if (f.id !== undefined) parts.push(sql`d.id = ${f.id}`);
  if (f.customerId !== undefined) parts.push(sql`d.portal_id = ${f.customerId}`);
  // A case's or an alert's devices, including ones a completed case has released.
  if (f.caseId !== undefined)
    parts.push(
      sql`exists (select 1 from case_devices cd where cd.tenant_id = d.tenant_id and cd.case_id = ${f.caseId} and cd.device_id = d.id)`,
    );
  if (f.alertId !== undefined)
    parts.push(
      sql`exists (select 1 from alert_devices ad where ad.tenant_id = d.tenant_id and ad.alert_id = ${f.alertId} and ad.device_id = d.id)`,
    );
  if (f.status !== undefined) parts.push(sql`d.status = ${f.status}`);
  // No index names status (schema/monitoring.ts): the (few) offline devices are found through their open offline periods,
  // and those in maintenance (whose open period is a status-2 one, docs/maintenance.md) through devices_maintenance_idx:
  // the filter is about the reported status, as the kept counts are.
  if (f.status === DEVICE_STATUS.offline)
    parts.push(
      sql`(d.tenant_id, d.portal_id, d.id) in (select op.tenant_id, op.portal_id, op.device_id from ${OFFLINE_PERIODS} where ${IS_OPEN_OFFLINE}
            union all
            select m.tenant_id, m.portal_id, m.id from devices m
             where m.maintenance_since is not null and ${tenantCondition(f.scope, sql`m.tenant_id`)})`,
    );
  if (f.deviceType !== undefined) parts.push(sql`d.device_type = ${f.deviceType}`);
  if (f.q) parts.push(sql`d.name ilike ${containsPattern(f.q)}`);
  return sql.join(parts, sql` and `);
}

/** Removed devices, and devices of deleted portals or tenants, are never listed. */
function whereOf(f: DeviceFilter): SQL {
  return sql.join([deviceOnly(f), sql`p.deleted_at is null`, sql`t.deleted_at is null`], sql` and `);
}

/**
 * For the superAdmin (every tenant), rows of deleted tenants are skipped while paging; a tenant
 * caller's own tenant is checked once by the outer join (and its kept total is 0 then).
 */
const liveTenantOf = (scope: Scope): SQL =>
  scope.kind === 'all' ? sql`exists (select 1 from tenants lt where lt.id = d.tenant_id and lt.deleted_at is null)` : sql`true`;

export interface DevicePage {
  sort: { field: DeviceSortField; dir: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
  /** The exact total (kept counts), when known: a page nearer the end is read from the end. */
  total?: number;
  /** From the kept total: false when the scope has no deleted portal, so skipped rows need no portal check. */
  hasDeletedPortal?: boolean;
  /** In a bounded order: a kept bound reached by at least offset + limit rows (sort-bounds.ts). */
  bound?: SortBound;
}

/** `extra`: one more select-list column (a first page's kept total, `firstPageWithTotal`). */
export function listDevicesSql(f: DeviceFilter & DevicePage, extra?: SQL): { query: SQL; plan: PagePlan } {
  const plan = planPage(f, f.total);
  const order = pageOrder(f.sort, SORT_SQL, { column: sql`d.id`, dir: f.sort.dir }, plan.reverse);
  const columns = extra ? sql`${columnsOf(f.sort)}, ${extra}` : columnsOf(f.sort);
  if (f.sort.field === 'customerName') {
    return { plan, query: sql`select ${columns} ${FROM} where ${whereOf(f)} ${order} ${limitOf(plan)}` };
  }
  // Deferred join: skip rows over the device table alone (index order for the default sort, no portal
  // reads per skipped row unless the scope has a deleted portal; from the nearer end), then read the
  // page's rows with their portal and tenant.
  const conditions = sql`${deviceOnly(f)} and ${portalNotDeleted('d', f.hasDeletedPortal !== false)} and ${liveTenantOf(f.scope)}`;
  const skip =
    f.bound && !plan.reverse && isBoundedSort(f.sort.field)
      ? boundedSkip(conditions, order, f.sort, plan, f.bound)
      : sql`select d.tenant_id, d.id from devices d where ${conditions} ${order} ${limitOf(plan)}`;
  return { plan, query: pageRowsOf(skip, columns, order) };
}

/**
 * The keys of a page in a bounded order, read through a kept bound (sort-bounds.ts): the devices at or
 * before the bound's key in the page's order, sorted, when at least offset + limit are; otherwise (the
 * bound is stale: devices changed, were removed or deleted since) every device of the list, sorted, in
 * the same statement. Each branch is gated by a one-time filter on the bounded rows' count, so the
 * closed one reads no row. A null key (lastOnline only) is never within a bound: nulls come last in both
 * directions, after every bound.
 */
function boundedSkip(
  conditions: SQL,
  order: SQL,
  sort: { field: DeviceSortField; dir: 'ASC' | 'DESC' },
  page: { offset: number; limit: number },
  bound: SortBound,
): SQL {
  const { column, type } = BOUNDED_SORTS[sort.field]!;
  const rows = page.offset + page.limit;
  const within = sql`(${SORT_SQL[sort.field]}, d.id) ${sql.raw(sort.dir === 'DESC' ? '>=' : '<=')} (${bound.key}::${type}, ${bound.id}::int)`;
  return sql`with bounded as materialized (
                select d.tenant_id, d.id, ${column} from devices d where ${conditions} and ${within} ${order} limit ${pageLimit(rows)})
              select b.tenant_id, b.id from (select d.tenant_id, d.id from bounded d ${order} offset ${page.offset}) b
               where (select count(*) from bounded) = ${rows}
              union all
              (select d.tenant_id, d.id from devices d where ${conditions} and (select count(*) from bounded) < ${rows}
                ${order} ${pageOf(page)})`;
}

/** The page's rows (with portal and tenant) of the device keys `skip` selected, in `order`. */
const pageRowsOf = (skip: SQL, columns: SQL, order: SQL) => sql`select ${columns}
          from (${skip}) k
          join devices d on d.tenant_id = k.tenant_id and d.id = k.id
          join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id
          join tenants t on t.id = d.tenant_id
         where p.deleted_at is null and t.deleted_at is null
         ${order}`;

/**
 * A later page in the same statement as its kept total (kept-counts.ts laterPageWithTotal), its rows
 * skipped with no portal check; undefined for the sort on the portal's name (no deferred join).
 */
export function laterDevicesSql(f: DeviceFilter & DevicePage) {
  if (f.sort.field === 'customerName') return undefined;
  return (end: PageEnd, keptColumns: SQL): SQL => {
    const order = (reverse: boolean) => pageOrder(f.sort, SORT_SQL, { column: sql`d.id`, dir: f.sort.dir }, reverse);
    const conditions = sql`${deviceOnly(f)} and ${liveTenantOf(f.scope)}`;
    const skip =
      f.bound && !end.reverse && isBoundedSort(f.sort.field)
        ? boundedSkip(conditions, order(false), f.sort, f, f.bound)
        : sql`select d.tenant_id, d.id from devices d where ${conditions} ${order(end.reverse)} ${end.limit}`;
    return pageRowsOf(skip, sql`${columnsOf(f.sort)}, ${keptColumns}`, order(false));
  };
}

/** The tenant's device order version (schema/counts.ts), as text; 0 before its first device. */
const deviceOrderVersionOf = (tenantId: number): SQL => orderVersionOf(sql`device_order_versions`, tenantId);

/** The list's default order, name then id, ascending: the order the name marks are of. */
const NAME_ORDER = pageOrder({ field: 'name', dir: 'ASC' }, SORT_SQL, { column: sql`d.id`, dir: 'ASC' }, false);

/**
 * A tenant's name marks (name-marks.ts): the key of every NAME_MARK_EVERY-th device of its whole list
 * in the default order, and its device order version read in the same statement (one snapshot).
 * Undefined for a tenant without devices, or with a deleted portal: a page read from a mark skips rows
 * without checking their portal (listMarkedDevices), so it could never be answered from them.
 */
export async function readNameMarks(executor: Executor, tenantId: number): Promise<NameMarks | undefined> {
  const rows = await queryRows<{ version: string; name_key: string; id: number; total: number | string }>(
    executor,
    sql`select ${deviceOrderVersionOf(tenantId)} as version, x.name_key, x.id, x.total
          from (select d.name_key, d.id, row_number() over (${NAME_ORDER}) as rn, count(*) over () as total
                  from devices d where d.removed_at is null and d.tenant_id = ${tenantId}
                   and not ${deletedPortalExists(tenantScope(tenantId))}) x
         where x.rn % ${sql.raw(String(NAME_MARK_EVERY))} = 1
         order by x.rn`,
  );
  if (rows.length === 0) return undefined;
  return {
    version: String(rows[0].version),
    marks: rows.map((r) => ({ key: r.name_key, id: Number(r.id) })),
    count: Number(rows[0].total),
  };
}

/** A page read from a mark, with what decides whether it may be answered (listMarkedDevices). */
export interface MarkedPage {
  rows: DeviceRow[];
  /** The tenant's device order version as it is now. */
  version: string;
  /** Whether the tenant has a deleted portal now (the skip does not check portals). */
  hasDeletedPortal: boolean;
}

/**
 * A later page of a tenant's whole list in the default order, read from the kept mark at or before it
 * (an index seek on devices_list_name_idx, then fewer than NAME_MARK_EVERY rows skipped), with the
 * order version as it is now and whether the tenant has a deleted portal: the caller answers the page
 * only if the version is the one the marks were read at and no portal is deleted. Undefined for an
 * empty page (the list shrank, or the tenant is deleted).
 */
export async function listMarkedDevices(
  executor: Executor,
  tenantId: number,
  limit: number,
  start: MarkedStart,
): Promise<MarkedPage | undefined> {
  const skip = sql`select d.tenant_id, d.id from devices d
                    where d.removed_at is null and d.tenant_id = ${tenantId}
                      and (d.name_key, d.id) >= (${start.mark.key}::text, ${start.mark.id}::int)
                    ${NAME_ORDER} limit ${pageLimit(limit)} offset ${start.skip}`;
  const checks = sql`${deviceOrderVersionOf(tenantId)} as page_version,
    ${deletedPortalExists(tenantScope(tenantId))} as page_deleted`;
  const rows = await queryRows<DeviceRow & { page_version: string; page_deleted: boolean }>(
    executor,
    pageRowsOf(skip, sql`${COLUMNS}, ${checks}`, NAME_ORDER),
  );
  if (rows.length === 0) return undefined;
  return {
    rows: rows.map(({ page_version: _version, page_deleted: _deleted, ...row }) => row),
    version: String(rows[0].page_version),
    hasDeletedPortal: rows[0].page_deleted === true,
  };
}

export async function listDevices(executor: Executor, f: DeviceFilter & DevicePage): Promise<DeviceRow[]> {
  const { query, plan } = listDevicesSql(f);
  return inPageOrder(plan, await queryRows<DeviceRow>(executor, query));
}

export async function countDevices(executor: Executor, f: DeviceFilter): Promise<number> {
  const [row] = await queryRows<{ n: number }>(executor, sql`select count(*)::int as n ${FROM} where ${whereOf(f)}`);
  return Number(row?.n ?? 0);
}

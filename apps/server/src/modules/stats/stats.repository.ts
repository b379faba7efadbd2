import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { DeviceStatsRow } from '@vigil/contracts';

/**
 * Set-based counts for the stats endpoints. `tenantId` undefined means every tenant
 * (superAdmin); the explicit tenant condition is the mechanism, RLS the backstop.
 * Removed devices and deleted portals/tenants are never counted.
 */

const tenantCond = (column: SQL, tenantId: number | undefined) => (tenantId === undefined ? sql`true` : sql`${column} = ${tenantId}`);

/** Live devices joined to live portals and tenants, as `d`, `p`, `t`. */
const LIVE_DEVICES = sql`devices d
  join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id and p.deleted_at is null
  join tenants t on t.id = d.tenant_id and t.deleted_at is null`;

export interface StatusCounts {
  onlineCount: number;
  offlineCount: number;
}

export async function statusCounts(executor: Executor, tenantId: number | undefined, portalId?: number): Promise<StatusCounts> {
  const [row] = await queryRows<{ online: string | number; offline: string | number }>(
    executor,
    sql`select count(*) filter (where d.status = 1) as online, count(*) filter (where d.status = 0) as offline
          from ${LIVE_DEVICES}
         where ${tenantCond(sql`d.tenant_id`, tenantId)} and d.removed_at is null
           ${portalId === undefined ? sql`` : sql`and d.portal_id = ${portalId}`}`,
  );
  return { onlineCount: Number(row?.online ?? 0), offlineCount: Number(row?.offline ?? 0) };
}

/** Counts per device type 0..4, zeros included (generate_series gives the missing types). */
export async function typeTotals(executor: Executor, tenantId: number | undefined, portalId?: number): Promise<number[]> {
  const rows = await queryRows<{ device_type: number; total: string | number }>(
    executor,
    sql`select ty.device_type, count(d.id) as total
          from generate_series(0, 4) as ty(device_type)
          left join (select d.id, d.device_type from ${LIVE_DEVICES}
                      where ${tenantCond(sql`d.tenant_id`, tenantId)} and d.removed_at is null
                        ${portalId === undefined ? sql`` : sql`and d.portal_id = ${portalId}`}) d
            on d.device_type = ty.device_type
         group by ty.device_type
         order by ty.device_type`,
  );
  return rows.map((r) => Number(r.total));
}

/** A tenant's reliability goal, or undefined when the tenant is gone. */
export async function tenantGoalScore(executor: Executor, tenantId: number): Promise<number | undefined> {
  const [row] = await queryRows<{ goal_score: number }>(executor, sql`select goal_score from tenants where id = ${tenantId} and deleted_at is null`);
  return row ? Number(row.goal_score) : undefined;
}

/** The live portal with this id in the caller's tenant (undefined: all tenants), or undefined. */
export async function findPortal(executor: Executor, tenantId: number | undefined, portalId: number) {
  const [row] = await queryRows<{ tenant_id: number; id: number; name: string; goal_score: number }>(
    executor,
    sql`select p.tenant_id, p.id, p.name, t.goal_score
          from portals p join tenants t on t.id = p.tenant_id and t.deleted_at is null
         where p.id = ${portalId} and p.deleted_at is null and ${tenantCond(sql`p.tenant_id`, tenantId)}`,
  );
  return row ? { tenantId: Number(row.tenant_id), id: Number(row.id), name: row.name, goalScore: Number(row.goal_score) } : undefined;
}

export interface DeviceStatsPage {
  offset: number;
  limit: number;
  sort?: { field: 'customerName' | 'deviceType' | 'totalCount' | 'onlineCount' | 'offlineCount'; dir: 'ASC' | 'DESC' };
  filter: { customerId?: number; deviceType?: number; q?: string; tenantName?: string };
}

const STATS_ORDER: Record<NonNullable<DeviceStatsPage['sort']>['field'], SQL> = {
  customerName: sql`lower(customer_name)`,
  deviceType: sql`device_type`,
  totalCount: sql`total_count`,
  onlineCount: sql`online_count`,
  offlineCount: sql`offline_count`,
};

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One row per (live portal, device type), including types with no device, paged in SQL.
 * The total comes from the same grouped set (count(*) over()).
 */
export async function deviceStatsPage(executor: Executor, tenantId: number | undefined, page: DeviceStatsPage): Promise<{ list: DeviceStatsRow[]; count: number }> {
  const f = page.filter;
  const conds: SQL[] = [tenantCond(sql`p.tenant_id`, tenantId)];
  if (f.customerId !== undefined) conds.push(sql`p.id = ${f.customerId}`);
  if (f.deviceType !== undefined) conds.push(sql`ty.device_type = ${f.deviceType}`);
  if (f.q) conds.push(sql`p.name ilike ${likeOf(f.q)}`);
  if (f.tenantName) conds.push(sql`t.name ilike ${likeOf(f.tenantName)}`);
  const dir = page.sort?.dir === 'DESC' ? sql`desc` : sql`asc`;
  const order = page.sort ? sql`${STATS_ORDER[page.sort.field]} ${dir}, customer_id, device_type` : sql`lower(customer_name), customer_id, device_type`;
  const rows = await queryRows<{
    customer_id: number | null; customer_name: string; tenant_name: string; device_type: number;
    total_count: string | number; online_count: string | number; offline_count: string | number; full_count: string | number;
  }>(
    executor,
    // The count rides on a one-row left join so it is known even past the last page.
    sql`with g as (
          select p.id as customer_id, p.name as customer_name, t.name as tenant_name, ty.device_type,
                 count(d.id) as total_count,
                 count(d.id) filter (where d.status = 1) as online_count,
                 count(d.id) filter (where d.status = 0) as offline_count
            from portals p
            join tenants t on t.id = p.tenant_id and t.deleted_at is null
            cross join generate_series(0, 4) as ty(device_type)
            left join devices d on d.tenant_id = p.tenant_id and d.portal_id = p.id
                               and d.device_type = ty.device_type and d.removed_at is null
           where p.deleted_at is null and ${sql.join(conds, sql` and `)}
           group by p.id, p.name, t.name, ty.device_type
        )
        select c.full_count, r.* from (select count(*) as full_count from g) c
        left join lateral (select * from g order by ${order} limit ${page.limit} offset ${page.offset}) r on true
        order by ${order}`,
  );
  const count = Number(rows[0]?.full_count ?? 0);
  const list = rows
    .filter((r) => r.customer_id !== null)
    .map((r) => ({
      customerId: Number(r.customer_id),
      customerName: r.customer_name,
      tenantName: r.tenant_name,
      deviceType: Number(r.device_type),
      totalCount: Number(r.total_count),
      onlineCount: Number(r.online_count),
      offlineCount: Number(r.offline_count),
    }));
  return { list, count };
}

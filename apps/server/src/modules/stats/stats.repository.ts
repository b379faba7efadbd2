import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { DeviceStatsRow } from '@vigil/contracts';
import { DEVICE_COUNT_PREFIXES } from '../../db/schema/counts.ts';

/**
 * Set-based counts for the stats endpoints. `tenantId` undefined means every tenant
 * (superAdmin); the explicit tenant condition is the mechanism, RLS the backstop.
 * Removed devices and deleted portals/tenants are never counted.
 */

const tenantCond = (column: SQL, tenantId: number | undefined) => (tenantId === undefined ? sql`true` : sql`${column} = ${tenantId}`);

export interface StatusCounts {
  onlineCount: number;
  offlineCount: number;
}

/** Kept device counts (db/schema/counts.ts) of live portals and tenants, as `k`, `p`, `t`. */
const LIVE_COUNTS = sql`device_counts k
  join portals p on p.tenant_id = k.tenant_id and p.id = k.portal_id and p.deleted_at is null
  join tenants t on t.id = k.tenant_id and t.deleted_at is null`;

const sumOf = (suffix: 'total' | 'online') =>
  sql.join(
    DEVICE_COUNT_PREFIXES.map((t) => sql.raw(`k.${t}_${suffix}`)),
    sql` + `,
  );

/** Online and offline devices now, from the kept counts (one row per portal, not every device). */
export async function statusCounts(executor: Executor, tenantId: number | undefined, portalId?: number): Promise<StatusCounts> {
  const [row] = await queryRows<{ online: string | number | null; total: string | number | null }>(
    executor,
    sql`select sum(${sumOf('online')}) as online, sum(${sumOf('total')}) as total
          from ${LIVE_COUNTS}
         where ${tenantCond(sql`k.tenant_id`, tenantId)}
           ${portalId === undefined ? sql`` : sql`and k.portal_id = ${portalId}`}`,
  );
  const online = Number(row?.online ?? 0);
  return { onlineCount: online, offlineCount: Number(row?.total ?? 0) - online };
}

/** Counts per device type 0..4 (zeros included), from the kept counts. */
export async function typeTotals(executor: Executor, tenantId: number | undefined, portalId?: number): Promise<number[]> {
  const [row] = await queryRows<Record<string, string | number | null>>(
    executor,
    sql`select ${sql.join(
      DEVICE_COUNT_PREFIXES.map((t) => sql.raw(`sum(k.${t}_total) as ${t}`)),
      sql`, `,
    )}
          from ${LIVE_COUNTS}
         where ${tenantCond(sql`k.tenant_id`, tenantId)}
           ${portalId === undefined ? sql`` : sql`and k.portal_id = ${portalId}`}`,
  );
  return DEVICE_COUNT_PREFIXES.map((t) => Number(row?.[t] ?? 0));
}

/** A tenant's reliability goal, or undefined when the tenant is gone. */
export async function tenantGoalScore(executor: Executor, tenantId: number): Promise<number | undefined> {
  const [row] = await queryRows<{ goal_score: number }>(
    executor,
    sql`select goal_score from tenants where id = ${tenantId} and deleted_at is null`,
  );
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
 * One row per (live portal, device type), including types with no device, paged in SQL; the
 * counts are the kept ones (one row per portal and type already).
 * The total comes from the same grouped set (count(*) over()).
 */
export async function deviceStatsPage(
  executor: Executor,
  tenantId: number | undefined,
  page: DeviceStatsPage,
): Promise<{ list: DeviceStatsRow[]; count: number }> {
  const f = page.filter;
  const conds: SQL[] = [tenantCond(sql`p.tenant_id`, tenantId)];
  if (f.customerId !== undefined) conds.push(sql`p.id = ${f.customerId}`);
  if (f.deviceType !== undefined) conds.push(sql`ty.device_type = ${f.deviceType}`);
  if (f.q) conds.push(sql`p.name ilike ${likeOf(f.q)}`);
  if (f.tenantName) conds.push(sql`t.name ilike ${likeOf(f.tenantName)}`);
  const dir = page.sort?.dir === 'DESC' ? sql`desc` : sql`asc`;
  const order = page.sort
    ? sql`${STATS_ORDER[page.sort.field]} ${dir}, customer_id, device_type`
    : sql`lower(customer_name), customer_id, device_type`;
  const rows = await queryRows<{
    customer_id: number | null;
    customer_name: string;
    tenant_name: string;
    device_type: number;
    total_count: string | number;
    online_count: string | number;
    offline_count: string | number;
    full_count: string | number;
  }>(
    executor,
    // The count rides on a one-row left join so it is known even past the last page.
    sql`with g as (
          select p.id as customer_id, p.name as customer_name, t.name as tenant_name, ty.device_type,
                 coalesce(ty.total, 0) as total_count,
                 coalesce(ty.online, 0) as online_count,
                 coalesce(ty.total - ty.online, 0) as offline_count
            from portals p
            join tenants t on t.id = p.tenant_id and t.deleted_at is null
            left join device_counts k on k.tenant_id = p.tenant_id and k.portal_id = p.id
            cross join lateral (values ${sql.join(
              DEVICE_COUNT_PREFIXES.map((t, i) => sql.raw(`(${i}, k.${t}_total, k.${t}_online)`)),
              sql`, `,
            )}) as ty(device_type, total, online)
           where p.deleted_at is null and ${sql.join(conds, sql` and `)}
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

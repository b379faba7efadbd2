import type { LiveEvent } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { keptDeviceColumns } from '../../db/kept-counts.ts';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from '../../db/offline-periods.ts';

/**
 * Live-event rows (docs/decisions.md 28): one per live portal with offline devices, offlineSince =
 * the earliest status_since among them. `tenantId` undefined = every tenant (superAdmin).
 */

export interface LiveEventsPage {
  offset: number;
  limit: number;
  sort?: { field: 'customerName' | 'offlineCount' | 'offlineSince'; dir: 'ASC' | 'DESC' };
  filter: { customerId?: number; q?: string; tenantName?: string };
}

const ORDER: Record<NonNullable<LiveEventsPage['sort']>['field'], SQL> = {
  customerName: sql`lower(customer_name)`,
  offlineCount: sql`offline_count`,
  offlineSince: sql`offline_since`,
};

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface Row {
  customer_id: number | null;
  customer_name: string;
  tenant_name: string;
  offline_count: string | number;
  offline_since: Date | string;
  full_count?: string | number;
}

const toLiveEvent = (r: Row): LiveEvent => ({
  customerId: Number(r.customer_id),
  customerName: r.customer_name,
  tenantName: r.tenant_name,
  offlineCount: Number(r.offline_count),
  offlineSince: new Date(r.offline_since).toISOString(),
});

function groupedRows(conds: SQL[]): SQL {
  return sql`select p.id as customer_id, p.name as customer_name, t.name as tenant_name,
                    count(*) as offline_count, min(op.started_at) as offline_since
               from ${OFFLINE_PERIODS}
               join portals p on p.tenant_id = op.tenant_id and p.id = op.portal_id and p.deleted_at is null
               join tenants t on t.id = op.tenant_id and t.deleted_at is null
              where ${IS_OPEN_OFFLINE} and ${sql.join(conds, sql` and `)}
              group by p.id, p.name, t.name`;
}

const tenantCond = (tenantId: number | undefined) => (tenantId === undefined ? sql`true` : sql`op.tenant_id = ${tenantId}`);

/** The paged list; `count` is the number of matching portals. */
export async function liveEventsPage(
  executor: Executor,
  tenantId: number | undefined,
  page: LiveEventsPage,
): Promise<{ list: LiveEvent[]; count: number }> {
  const conds = [tenantCond(tenantId)];
  if (page.filter.customerId !== undefined) conds.push(sql`p.id = ${page.filter.customerId}`);
  if (page.filter.q) conds.push(sql`p.name ilike ${likeOf(page.filter.q)}`);
  if (page.filter.tenantName) conds.push(sql`t.name ilike ${likeOf(page.filter.tenantName)}`);
  const dir = page.sort?.dir === 'DESC' ? sql`desc` : sql`asc`;
  // Default: the longest-running outage first.
  const order = page.sort ? sql`${ORDER[page.sort.field]} ${dir}, customer_id` : sql`offline_since asc, customer_id`;
  const rows = await queryRows<Row>(
    executor,
    sql`with g as (${groupedRows(conds)})
        select c.full_count, r.* from (select count(*) as full_count from g) c
        left join lateral (select * from g order by ${order} limit ${page.limit} offset ${page.offset}) r on true
        order by ${order}`,
  );
  return { count: Number(rows[0]?.full_count ?? 0), list: rows.filter((r) => r.customer_id !== null).map(toLiveEvent) };
}

/** Every live-event row of a tenant (or all tenants), longest outage first, capped for the stream snapshot. */
export async function liveEventsSnapshot(executor: Executor, tenantId: number | undefined, limit = 1000): Promise<LiveEvent[]> {
  const rows = await queryRows<Row>(
    executor,
    sql`${groupedRows([tenantCond(tenantId)])} order by offline_since, customer_id limit ${limit}`,
  );
  return rows.map(toLiveEvent);
}

export interface PortalLiveState {
  tenantId: number;
  customerId: number;
  customerName: string;
  tenantName: string;
  onlineCount: number;
  offlineCount: number;
  /** null when the portal has no offline device. */
  offlineSince: string | null;
}

/**
 * Several portals' counts and earliest offline time in one query (what a burst of status changes
 * pushes), keyed `tenantId:portalId`. Deleted portals are absent.
 */
export async function portalLiveStates(
  executor: Executor,
  portals: { tenantId: number; portalId: number }[],
): Promise<Map<string, PortalLiveState>> {
  const rows = await queryRows<{
    tenant_id: number;
    id: number;
    name: string;
    tenant_name: string;
    online: string | number;
    offline: string | number;
    since: Date | string | null;
  }>(
    executor,
    // The online count is the portal's kept count; its offline devices are read per portal (LATERAL)
    // through their open offline periods, as a one-portal query would: a join over the whole list
    // could plan a scan of every offline device.
    sql`select p.tenant_id, p.id, p.name, t.name as tenant_name, coalesce(${keptDeviceColumns('online')}, 0) as online, c.offline, c.since
          from unnest(${sql.param(portals.map((p) => p.tenantId))}::int[], ${sql.param(portals.map((p) => p.portalId))}::int[]) as q(tenant_id, portal_id)
          join portals p on p.tenant_id = q.tenant_id and p.id = q.portal_id and p.deleted_at is null
          join tenants t on t.id = p.tenant_id
          left join device_counts k on k.tenant_id = p.tenant_id and k.portal_id = p.id
          cross join lateral (
            select count(*) as offline, min(op.started_at) as since
              from ${OFFLINE_PERIODS}
             where ${IS_OPEN_OFFLINE} and op.tenant_id = p.tenant_id and op.portal_id = p.id) c`,
  );
  return new Map(
    rows.map((row) => [
      `${row.tenant_id}:${row.id}`,
      {
        tenantId: Number(row.tenant_id),
        customerId: Number(row.id),
        customerName: row.name,
        tenantName: row.tenant_name,
        onlineCount: Number(row.online),
        offlineCount: Number(row.offline),
        offlineSince: row.since ? new Date(row.since).toISOString() : null,
      },
    ]),
  );
}

/** The ticket's user if it may still hold a stream: not deactivated, tenant not deleted. */
export async function findStreamUser(
  executor: Executor,
  userId: number,
): Promise<{ tenant_id: number | null; roles: string[] } | undefined> {
  const [user] = await queryRows<{ tenant_id: number | null; roles: string[] }>(
    executor,
    sql`select u.tenant_id, u.roles from users u left join tenants t on t.id = u.tenant_id
           where u.id = ${userId} and u.deactivated_at is null and (u.tenant_id is null or t.deleted_at is null)`,
  );
  return user;
}

import type { PortalSortField } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { containsPattern, direction, prefixPattern, tenantCondition } from '../../db/sql-fragments.ts';
import { pageOf } from '../../db/sql-list.ts';

/** One portal with its tenant's name and per-type device counts (removed devices excluded). */
export interface PortalRow {
  id: number;
  name: string;
  tenant_id: number;
  tenant_name: string;
  created_at: Date | string;
  camera_count: number;
  intercom_count: number;
  access_count: number;
  alarm_count: number;
  environmental_count: number;
}

export interface PortalSecretsRow extends PortalRow {
  api_key_enc: string;
  webhook_secret_enc: string;
}

/** Sort keys computed in SQL; `reliabilityScore` is sorted by the service (it is not a column). */
const SORT_SQL: Record<Exclude<PortalSortField, 'reliabilityScore'>, SQL> = {
  name: sql`lower(p.name)`,
  customerName: sql`lower(p.name)`,
  tenantName: sql`lower(t.name)`,
  cameraCount: sql`coalesce(c.camera_total, 0)`,
  intercomCount: sql`coalesce(c.intercom_total, 0)`,
  accessCount: sql`coalesce(c.access_total, 0)`,
  alarmCount: sql`coalesce(c.alarm_total, 0)`,
  environmentalCount: sql`coalesce(c.environmental_total, 0)`,
  createdAt: sql`p.created_at`,
};

export interface PortalFilter {
  scope: Scope;
  q?: string;
  ids?: number[];
}

function whereOf(f: PortalFilter): SQL {
  const parts = [sql`p.deleted_at is null`, sql`t.deleted_at is null`, tenantCondition(f.scope, sql`p.tenant_id`)];
  if (f.q) parts.push(sql`p.name ilike ${containsPattern(f.q)}`);
  if (f.ids) parts.push(sql`p.id = any(${sql.param(f.ids)}::int[])`);
  return sql.join(parts, sql` and `);
}

const SELECT_PORTAL = sql`p.id, p.name, p.tenant_id, t.name as tenant_name, p.created_at,
  coalesce(c.camera_total, 0) as camera_count, coalesce(c.intercom_total, 0) as intercom_count,
  coalesce(c.access_total, 0) as access_count, coalesce(c.alarm_total, 0) as alarm_count,
  coalesce(c.environmental_total, 0) as environmental_count`;

/** Portals with their kept device counts (one row per portal, read by primary key). */
const FROM_PORTALS = sql`from portals p
    join tenants t on t.id = p.tenant_id
    left join device_counts c on c.tenant_id = p.tenant_id and c.portal_id = p.id`;

export async function listPortals(
  executor: Executor,
  f: PortalFilter & { sort: { field: Exclude<PortalSortField, 'reliabilityScore'>; dir: 'ASC' | 'DESC' }; offset: number; limit: number },
): Promise<(PortalRow & { full_count: number | string })[]> {
  // The match count rides on every row (count(*) over ()): one statement for a page and its total.
  return queryRows<PortalRow & { full_count: number | string }>(
    executor,
    sql`select ${SELECT_PORTAL}, count(*) over () as full_count ${FROM_PORTALS}
         where ${whereOf(f)}
         order by ${SORT_SQL[f.sort.field]} ${direction(f.sort.dir)}, p.id ${direction(f.sort.dir)}
         ${pageOf(f)}`,
  );
}

/**
 * A page of one tenant's live portals in name order (its list's default) and their total, in one
 * statement: the page's keys skipped in portals_list_name_idx order, index-only, then only their rows
 * joined to the tenant and the kept device counts. The general statement above sorts and counts every
 * portal of the tenant for each page (at L, 1,000 portals: 2.5 ms against 0.3 ms). The total is the
 * tenant's kept count (db/schema/counts.ts portalCounts), not a count of its 1,000 index entries
 * (0.07 ms of each page's 0.25). A deleted tenant has no rows here (its count then comes from countPortals).
 * The statement, not its rows: the service reads it with the page's scores (stats reliabilityWithRows),
 * in one statement where it can; `page_order` is each row's place in the page.
 */
export function tenantPortalsByNamePage(tenantId: number, page: { dir: 'ASC' | 'DESC'; offset: number; limit: number }): SQL {
  const order = sql`lower(p.name) ${direction(page.dir)}, p.id ${direction(page.dir)}`;
  return sql`select ${SELECT_PORTAL},
                    (select pc.live from portal_counts pc where pc.tenant_id = ${tenantId}) as full_count,
                    row_number() over (order by ${order}) as page_order
               from (select p.tenant_id, p.id from portals p where p.tenant_id = ${tenantId} and p.deleted_at is null
                      order by ${order} ${pageOf(page)}) k
               join portals p on p.tenant_id = k.tenant_id and p.id = k.id
               join tenants t on t.id = p.tenant_id
               left join device_counts c on c.tenant_id = p.tenant_id and c.portal_id = p.id
              where t.deleted_at is null
              order by ${order}`;
}

export type TenantPortalPageRow = PortalRow & { full_count: number | string };

/** Rows for the given ids (any order); used after the service sorted ids by reliability. */
export async function portalsByIds(executor: Executor, scope: Scope, ids: number[]): Promise<PortalRow[]> {
  if (ids.length === 0) return [];
  return queryRows<PortalRow>(executor, sql`select ${SELECT_PORTAL} ${FROM_PORTALS} where ${whereOf({ scope, ids })}`);
}

/** Id and name of every portal matching the filter (to sort by reliability, or for selects). */
export async function portalOptions(executor: Executor, f: PortalFilter): Promise<{ id: number; name: string }[]> {
  return queryRows(
    executor,
    sql`select p.id, p.name from portals p join tenants t on t.id = p.tenant_id where ${whereOf(f)} order by lower(p.name), p.id`,
  );
}

export async function countPortals(executor: Executor, f: PortalFilter): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`select count(*)::int as n from portals p join tenants t on t.id = p.tenant_id where ${whereOf(f)}`,
  );
  return Number(row?.n ?? 0);
}

/** Header search: prefix matches first, then the other contains-matches; `total` counts all matches. */
export async function searchPortals(
  executor: Executor,
  scope: Scope,
  text: string,
  limit: number,
): Promise<{ rows: { id: number; name: string }[]; total: number }> {
  const rows = await queryRows<{ id: number; name: string; total: number }>(
    executor,
    sql`select p.id, p.name, count(*) over ()::int as total
          from portals p join tenants t on t.id = p.tenant_id
         where ${whereOf({ scope, q: text })}
         order by (p.name ilike ${prefixPattern(text)}) desc, lower(p.name), p.id
         limit ${limit}`,
  );
  return { rows: rows.map(({ id, name }) => ({ id, name })), total: Number(rows[0]?.total ?? 0) };
}

export async function findPortal(executor: Executor, scope: Scope, id: number): Promise<PortalSecretsRow | undefined> {
  const [row] = await queryRows<PortalSecretsRow>(
    executor,
    sql`select ${SELECT_PORTAL}, p.api_key_enc, p.webhook_secret_enc ${FROM_PORTALS}
         where ${whereOf({ scope, ids: [id] })}`,
  );
  return row;
}

/** What decides whether the tenant may add a portal (docs/decisions.md 36); locks the tenant row so two creations count right. */
export async function lockTenantForNewPortal(
  executor: Executor,
  tenantId: number,
): Promise<{ freeTier: boolean; freeCount: number; subscriptionStatus: string; portalCount: number } | undefined> {
  const [row] = await queryRows<{ free_tier: boolean; free_count: number; subscription_status: string }>(
    executor,
    sql`select free_tier, free_count, subscription_status from tenants where id = ${tenantId} and deleted_at is null for update`,
  );
  if (!row) return undefined;
  const [count] = await queryRows<{ n: number }>(
    executor,
    sql`select count(*)::int as n from portals where tenant_id = ${tenantId} and deleted_at is null`,
  );
  return {
    freeTier: row.free_tier,
    freeCount: Number(row.free_count),
    subscriptionStatus: row.subscription_status,
    portalCount: Number(count?.n ?? 0),
  };
}

export async function insertPortal(
  executor: Executor,
  v: { tenantId: number; name: string; apiKeyEnc: string; webhookSecretEnc: string; now: Date },
): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    executor,
    sql`insert into portals (tenant_id, name, api_key_enc, webhook_secret_enc, created_at, updated_at)
        values (${v.tenantId}, ${v.name}, ${v.apiKeyEnc}, ${v.webhookSecretEnc}, ${v.now.toISOString()}, ${v.now.toISOString()})
        returning id`,
  );
  return Number(row.id);
}

/** Returns false when no portal of the scope has this id. */
export async function updatePortal(
  executor: Executor,
  scope: Scope,
  id: number,
  v: { name: string; apiKeyEnc: string; now: Date },
): Promise<boolean> {
  const rows = await queryRows(
    executor,
    sql`update portals p set name = ${v.name}, api_key_enc = ${v.apiKeyEnc}, updated_at = ${v.now.toISOString()}
         where p.id = ${id} and p.deleted_at is null and ${tenantCondition(scope, sql`p.tenant_id`)}
         returning p.id`,
  );
  return rows.length === 1;
}

/** The current secret becomes the previous one (valid until `previousUntil`); returns false when not found. */
export async function rotatePortalSecret(
  executor: Executor,
  scope: Scope,
  id: number,
  v: { webhookSecretEnc: string; previousUntil: Date; now: Date },
): Promise<boolean> {
  const rows = await queryRows(
    executor,
    sql`update portals p
           set previous_webhook_secret_enc = p.webhook_secret_enc,
               previous_secret_expires_at = ${v.previousUntil.toISOString()},
               webhook_secret_enc = ${v.webhookSecretEnc},
               updated_at = ${v.now.toISOString()}
         where p.id = ${id} and p.deleted_at is null and ${tenantCondition(scope, sql`p.tenant_id`)}
         returning p.id`,
  );
  return rows.length === 1;
}

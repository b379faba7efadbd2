import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { orderBy, pageOf, allOf, inTenant, containsPattern } from '../../db/sql-list.ts';

/** A channel row as stored (target and secret still sealed). */
export interface ChannelRow {
  tenant_id: number;
  id: number;
  name: string;
  type: string;
  target_enc: string;
  secret_enc: string | null;
  to_admins: boolean;
  enabled: boolean;
  events: string[];
  portal_ids: number[];
  delay_minutes: number;
  repeat_minutes: number;
  created_at: Date | string;
}

const COLUMNS = sql`c.tenant_id, c.id, c.name, c.type, c.target_enc, c.secret_enc, c.to_admins, c.enabled, c.events, c.portal_ids,
  c.delay_minutes, c.repeat_minutes, c.created_at`;

export interface ChannelFilter {
  q?: string;
  type?: string;
  enabled?: boolean;
}

const SORT = {
  id: sql`c.id`,
  name: sql`lower(c.name)`,
  type: sql`c.type`,
  enabled: sql`c.enabled`,
  delayMinutes: sql`c.delay_minutes`,
  repeatMinutes: sql`c.repeat_minutes`,
};
export type ChannelSortField = keyof typeof SORT;

function whereOf(scope: Scope, f: ChannelFilter): SQL {
  const parts = [sql`c.deleted_at is null`, inTenant(scope, sql`c.tenant_id`)];
  if (f.q) parts.push(sql`c.name ilike ${containsPattern(f.q)}`);
  if (f.type) parts.push(sql`c.type = ${f.type}`);
  if (f.enabled !== undefined) parts.push(sql`c.enabled = ${f.enabled}`);
  return allOf(parts);
}

export async function listChannels(
  ex: Executor,
  scope: Scope,
  q: { filter: ChannelFilter; sort?: { field: ChannelSortField; dir: 'ASC' | 'DESC' }; offset: number; limit: number },
): Promise<{ rows: ChannelRow[]; count: number }> {
  const rows = await queryRows<ChannelRow & { full_count: number | string }>(
    ex,
    sql`select ${COLUMNS}, count(*) over () as full_count from notification_channels c
         where ${whereOf(scope, q.filter)}
         ${orderBy(q.sort, SORT, sql`c.id asc`)} ${pageOf(q)}`,
  );
  if (rows.length > 0) return { rows, count: Number(rows[0].full_count) };
  const [n] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from notification_channels c where ${whereOf(scope, q.filter)}`,
  );
  return { rows: [], count: Number(n?.n ?? 0) };
}

export async function findChannel(ex: Executor, scope: Scope, id: number, forUpdate = false): Promise<ChannelRow | undefined> {
  const [row] = await queryRows<ChannelRow>(
    ex,
    sql`select ${COLUMNS} from notification_channels c where c.id = ${id} and ${whereOf(scope, {})} ${forUpdate ? sql`for update` : sql``}`,
  );
  return row;
}

export interface ChannelValues {
  name: string;
  type: string;
  targetEnc: string;
  secretEnc: string | null;
  toAdmins: boolean;
  enabled: boolean;
  events: string[];
  portalIds: number[];
  delayMinutes: number;
  repeatMinutes: number;
}

export async function insertChannel(ex: Executor, tenantId: number, v: ChannelValues, now: Date): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    ex,
    sql`insert into notification_channels
          (tenant_id, name, type, target_enc, secret_enc, to_admins, enabled, events, portal_ids, delay_minutes, repeat_minutes, created_at, updated_at)
        values (${tenantId}, ${v.name}, ${v.type}, ${v.targetEnc}, ${v.secretEnc}, ${v.toAdmins}, ${v.enabled},
                ${sql.param(v.events)}::text[], ${sql.param(v.portalIds)}::int[], ${v.delayMinutes}, ${v.repeatMinutes}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
        returning id`,
  );
  return row.id;
}

export async function updateChannel(ex: Executor, tenantId: number, id: number, v: ChannelValues, now: Date): Promise<void> {
  await ex.execute(
    sql`update notification_channels set name = ${v.name}, type = ${v.type}, target_enc = ${v.targetEnc}, secret_enc = ${v.secretEnc},
          to_admins = ${v.toAdmins}, enabled = ${v.enabled}, events = ${sql.param(v.events)}::text[], portal_ids = ${sql.param(v.portalIds)}::int[],
          delay_minutes = ${v.delayMinutes}, repeat_minutes = ${v.repeatMinutes}, updated_at = ${now.toISOString()}::timestamptz
        where tenant_id = ${tenantId} and id = ${id}`,
  );
}

/** Soft delete; the channel's pending deliveries end as failed (its log stays). */
export async function deleteChannel(ex: Executor, tenantId: number, id: number, now: Date): Promise<void> {
  await ex.execute(
    sql`update notification_channels set deleted_at = ${now.toISOString()}::timestamptz, enabled = false, updated_at = ${now.toISOString()}::timestamptz
         where tenant_id = ${tenantId} and id = ${id}`,
  );
  await ex.execute(
    sql`update notification_deliveries set status = 'failed', last_error = 'Channel deleted', claimed_until = null, claim_token = null,
          updated_at = ${now.toISOString()}::timestamptz
         where tenant_id = ${tenantId} and channel_id = ${id} and status = 'pending'`,
  );
}

/** Of the given portal ids, those that are live portals of the tenant. */
export async function existingPortalIds(ex: Executor, tenantId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: number }>(
    ex,
    sql`select p.id from portals p where p.tenant_id = ${tenantId} and p.deleted_at is null and p.id = any(${sql.param(ids)}::int[])`,
  );
  return rows.map((r) => r.id);
}

/** Email addresses of the tenant's active Admins (the default "Admins" channel's recipients). */
export async function adminEmails(ex: Executor, tenantIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (tenantIds.length === 0) return out;
  const rows = await queryRows<{ tenant_id: number; email: string }>(
    ex,
    sql`select u.tenant_id, u.email from users u
         where u.tenant_id = any(${sql.param(tenantIds)}::int[]) and u.deactivated_at is null and 'Admin' = any(u.roles)
         order by u.tenant_id, lower(u.email)`,
  );
  for (const r of rows) out.set(r.tenant_id, [...(out.get(r.tenant_id) ?? []), r.email]);
  return out;
}

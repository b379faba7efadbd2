import type { ListQuery, Tenant } from '@vigil/contracts';
import { and, asc, count, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { portals, tenants, users } from '../../db/schema/index.ts';
import { escapeLike } from '../../db/sql-fragments.ts';

type TenantRow = typeof tenants.$inferSelect;
export type TenantInsert = typeof tenants.$inferInsert;
export type TenantChanges = Partial<
  Pick<
    TenantInsert,
    | 'name'
    | 'contactName'
    | 'brand'
    | 'email'
    | 'phone'
    | 'address'
    | 'goalScore'
    | 'heartbeatTimeout'
    | 'timezone'
    | 'freeCount'
    | 'freeTier'
    | 'discount'
  >
>;

/** Portals the tenant has now (deleted ones no longer use a free slot). */
// Written out with an alias: drizzle leaves columns unqualified in a one-table select, which would bind to portals.
const portalCount = sql<number>`(select count(*)::int from ${portals} p where p.tenant_id = "tenants"."id" and p.deleted_at is null)`;

const SORT_COLUMNS = {
  name: tenants.name,
  contactName: tenants.contactName,
  email: tenants.email,
  phone: tenants.phone,
  createdAt: tenants.createdAt,
  id: tenants.id,
} as const;
export type TenantSortField = keyof typeof SORT_COLUMNS;

/** The API shape of a tenant row; remainingCount = free portals left. */
export function toTenant(row: TenantRow, portals: number): Tenant {
  return {
    id: row.id,
    name: row.name,
    contactName: row.contactName,
    brand: row.brand,
    email: row.email,
    phone: row.phone,
    address: row.address,
    freeCount: row.freeCount,
    remainingCount: Math.max(0, row.freeCount - portals),
    freeTier: row.freeTier,
    discount: row.discount,
    goalScore: row.goalScore,
    heartbeatTimeout: row.heartbeatTimeout,
    timezone: row.timezone,
    subscriptionStatus: row.subscriptionStatus as Tenant['subscriptionStatus'],
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listTenants(ex: Executor, q: ListQuery<{ q?: string }, TenantSortField>): Promise<{ list: Tenant[]; count: number }> {
  const conds: SQL[] = [isNull(tenants.deletedAt)];
  if (q.filter.q) conds.push(ilike(tenants.name, `%${escapeLike(q.filter.q)}%`));
  const where = and(...conds);
  const order = q.sort ? (q.sort.dir === 'DESC' ? desc(SORT_COLUMNS[q.sort.field]) : asc(SORT_COLUMNS[q.sort.field])) : asc(tenants.name);
  const rows = await ex
    .select({ row: tenants, portals: portalCount })
    .from(tenants)
    .where(where)
    .orderBy(order, asc(tenants.id))
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await ex.select({ n: count() }).from(tenants).where(where);
  return { list: rows.map((r) => toTenant(r.row, r.portals)), count: Number(total?.n ?? 0) };
}

export async function listTenantOptions(ex: Executor): Promise<{ id: number; name: string }[]> {
  return ex
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(isNull(tenants.deletedAt))
    .orderBy(asc(tenants.name), asc(tenants.id));
}

/** A live (not deleted) tenant, or null. */
export async function findTenant(ex: Executor, id: number): Promise<Tenant | null> {
  const [r] = await ex
    .select({ row: tenants, portals: portalCount })
    .from(tenants)
    .where(and(eq(tenants.id, id), isNull(tenants.deletedAt)));
  return r ? toTenant(r.row, r.portals) : null;
}

export async function insertTenant(ex: Executor, values: TenantInsert): Promise<Tenant> {
  const [row] = await ex.insert(tenants).values(values).returning();
  return toTenant(row, 0);
}

/** Applies the changes to a live tenant; false when there is none with that id. */
export async function updateTenant(ex: Executor, id: number, changes: TenantChanges, now: Date): Promise<boolean> {
  const updated = await ex
    .update(tenants)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(tenants.id, id), isNull(tenants.deletedAt)))
    .returning({ id: tenants.id });
  return updated.length > 0;
}

/** Marks a live tenant deleted (its rows are kept); false when there is none with that id. */
export async function softDeleteTenant(ex: Executor, id: number, now: Date): Promise<boolean> {
  const deleted = await ex
    .update(tenants)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(tenants.id, id), isNull(tenants.deletedAt)))
    .returning({ id: tenants.id });
  return deleted.length > 0;
}

export async function userIdsOfTenant(ex: Executor, tenantId: number): Promise<number[]> {
  const rows = await ex.select({ id: users.id }).from(users).where(eq(users.tenantId, tenantId));
  return rows.map((r) => r.id);
}

/** The signing-up user's row, locked so two tenant creations by one user cannot both pass. */
export async function lockUserForOnboarding(ex: Executor, userId: number) {
  const [row] = await ex
    .select({ tenantId: users.tenantId, roles: users.roles, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row ?? null;
}

export async function makeTenantAdmin(ex: Executor, userId: number, tenantId: number, now: Date): Promise<void> {
  await ex
    .update(users)
    .set({ tenantId, roles: ['Admin'], updatedAt: now })
    .where(eq(users.id, userId));
}

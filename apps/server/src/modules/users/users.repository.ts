import { ROLES, splitName, type ListQuery, type Role, type User } from '@vigil/contracts';
import { and, asc, count, desc, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { oneTimeTokens, tenants, users } from '../../db/schema/index.ts';
import { escapeLike } from '../../db/sql-fragments.ts';

export interface StoredUser extends User {
  /** null when the user has no tenant (tenantId -1 in the API). */
  tenantRef: number | null;
}

/** Which users a caller manages: one tenant, or every tenant (superAdmin). */
export type UserReach = { tenantId: number } | 'all';

const columns = {
  id: users.id,
  tenantId: users.tenantId,
  tenantName: tenants.name,
  name: users.name,
  email: users.email,
  phone: users.phone,
  roles: users.roles,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  emailVerifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
};
interface Row {
  id: number;
  tenantId: number | null;
  tenantName: string | null;
  name: string;
  email: string;
  phone: string;
  roles: string[];
  hasPassword: boolean;
  emailVerifiedAt: Date | null;
  createdAt: Date;
}

const asRoles = (roles: string[]): Role[] => roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r));

function toUser(row: Row): StoredUser {
  return {
    id: row.id,
    tenantId: row.tenantId ?? -1,
    tenantRef: row.tenantId,
    tenantName: row.tenantName ?? '',
    name: row.name,
    ...splitName(row.name),
    email: row.email,
    phone: row.phone,
    roles: asRoles(row.roles),
    invited: !row.hasPassword,
    emailVerified: row.emailVerifiedAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The API shape: without the internal tenant reference. */
export function publicUser({ tenantRef: _internal, ...user }: StoredUser): User {
  return user;
}

/**
 * Users managed through /users: active (not deactivated), not a platform
 * superAdmin account, not of a deleted tenant, and within the caller's reach.
 */
function managedUsers(reach: UserReach): SQL {
  const conds: SQL[] = [isNull(users.deactivatedAt), sql`not ('superAdmin' = any(${users.roles}))`, isNull(tenants.deletedAt)];
  if (reach !== 'all') conds.push(eq(users.tenantId, reach.tenantId));
  return and(...conds)!;
}

const SORT_COLUMNS = {
  name: sql`lower(${users.name})`,
  email: sql`lower(${users.email})`,
  phone: users.phone,
  createdAt: users.createdAt,
  tenantName: sql`coalesce(${tenants.name}, '')`,
  id: users.id,
} as const;
export type UserSortField = keyof typeof SORT_COLUMNS;
export type UserFilter = { q?: string; tenantId?: number };

export async function listUsers(
  ex: Executor,
  reach: UserReach,
  q: ListQuery<UserFilter, UserSortField>,
): Promise<{ list: User[]; count: number }> {
  const conds: SQL[] = [managedUsers(reach)];
  if (q.filter.q) {
    const pattern = `%${escapeLike(q.filter.q)}%`;
    conds.push(or(sql`${users.name} ilike ${pattern}`, sql`${users.email} ilike ${pattern}`)!);
  }
  // Only the superAdmin picks a tenant; an Admin's reach is already its own (security rule 1).
  if (reach === 'all' && q.filter.tenantId !== undefined) conds.push(eq(users.tenantId, q.filter.tenantId));
  const where = and(...conds);
  const order = q.sort
    ? q.sort.dir === 'DESC'
      ? desc(SORT_COLUMNS[q.sort.field])
      : asc(SORT_COLUMNS[q.sort.field])
    : asc(SORT_COLUMNS.name);
  const rows = await ex
    .select(columns)
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .where(where)
    .orderBy(order, asc(users.id))
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await ex.select({ n: count() }).from(users).leftJoin(tenants, eq(tenants.id, users.tenantId)).where(where);
  return { list: rows.map((r) => publicUser(toUser(r))), count: Number(total?.n ?? 0) };
}

export async function findManagedUser(ex: Executor, reach: UserReach, id: number): Promise<StoredUser | null> {
  const [row] = await ex
    .select(columns)
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.id, id), managedUsers(reach)));
  return row ? toUser(row) : null;
}

/** A live tenant's id, locked until the transaction ends: Admin-count checks of one tenant run one at a time. */
export async function lockLiveTenant(ex: Executor, tenantId: number): Promise<boolean> {
  const rows = await ex
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.id, tenantId), isNull(tenants.deletedAt)))
    .for('update');
  return rows.length > 0;
}

/** Active Admins of the tenant other than `exceptUserId`. */
export async function countOtherAdmins(ex: Executor, tenantId: number, exceptUserId: number): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), ne(users.id, exceptUserId), isNull(users.deactivatedAt), sql`'Admin' = any(${users.roles})`));
  return Number(row?.n ?? 0);
}

export async function insertUser(
  ex: Executor,
  values: { tenantId: number; name: string; email: string; phone: string; roles: Role[] },
): Promise<number> {
  const [row] = await ex.insert(users).values(values).returning({ id: users.id });
  return row.id;
}

export type UserChanges = Partial<{ tenantId: number; name: string; email: string; phone: string; roles: Role[] }>;

export async function updateUser(ex: Executor, id: number, changes: UserChanges, now: Date): Promise<void> {
  await ex
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, id));
}

export async function deactivateUser(ex: Executor, id: number, now: Date): Promise<void> {
  await ex.update(users).set({ deactivatedAt: now, updatedAt: now }).where(eq(users.id, id));
}

/** Ends earlier invitation links of the user, so only the newest one works. */
export async function expireInvitations(ex: Executor, userId: number, now: Date): Promise<void> {
  await ex
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'invite'), isNull(oneTimeTokens.usedAt)));
}

/** True when the error is PostgreSQL's unique violation (e.g. users_email_key), whichever driver raised it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { refreshTokens, tenants, users } from '../../db/schema/index.ts';
import { hashToken } from '../../security/one-time-tokens.repository.ts';

/** A user with what sign-in and the profile need. */
export interface AccountRow {
  id: number;
  email: string;
  name: string;
  phone: string;
  roles: string[];
  tenantId: number | null;
  tenantName: string | null;
  tenantTimezone: string | null;
  passwordHash: string | null;
  emailVerifiedAt: Date | null;
  deactivatedAt: Date | null;
  tenantDeletedAt: Date | null;
}

const accountColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  phone: users.phone,
  roles: users.roles,
  tenantId: users.tenantId,
  tenantName: tenants.name,
  tenantTimezone: tenants.timezone,
  passwordHash: users.passwordHash,
  emailVerifiedAt: users.emailVerifiedAt,
  deactivatedAt: users.deactivatedAt,
  tenantDeletedAt: tenants.deletedAt,
};

/** Emails are unique case-insensitively (users_email_key on lower(email)). */
export async function findAccountByEmail(executor: Executor, email: string): Promise<AccountRow | null> {
  const [row] = await executor
    .select(accountColumns)
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return row ?? null;
}

export async function findAccountById(executor: Executor, id: number): Promise<AccountRow | null> {
  const [row] = await executor.select(accountColumns).from(users).leftJoin(tenants, eq(tenants.id, users.tenantId)).where(eq(users.id, id));
  return row ?? null;
}

/** May this account hold a session right now? */
export const isActive = (a: Pick<AccountRow, 'deactivatedAt' | 'tenantDeletedAt'>) =>
  a.deactivatedAt === null && a.tenantDeletedAt === null;

export async function insertUser(
  executor: Executor,
  values: {
    email: string;
    name: string;
    phone: string;
    passwordHash: string;
    roles?: string[];
    tenantId?: number | null;
    emailVerifiedAt?: Date | null;
    now: Date;
  },
): Promise<number> {
  const [row] = await executor
    .insert(users)
    .values({
      email: values.email,
      name: values.name,
      phone: values.phone,
      passwordHash: values.passwordHash,
      roles: values.roles ?? [],
      tenantId: values.tenantId ?? null,
      emailVerifiedAt: values.emailVerifiedAt ?? null,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .returning({ id: users.id });
  return row.id;
}

export async function updateUser(executor: Executor, id: number, set: Partial<typeof users.$inferInsert>, now: Date): Promise<void> {
  await executor
    .update(users)
    .set({ ...set, updatedAt: now })
    .where(eq(users.id, id));
}

/** Marks the email verified unless it already was (the first verification time is kept). */
export async function markEmailVerified(executor: Executor, id: number, now: Date): Promise<void> {
  await executor
    .update(users)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)));
}

export interface RefreshTokenRow {
  id: number;
  userId: number;
  familyId: string;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

const refreshColumns = {
  id: refreshTokens.id,
  userId: refreshTokens.userId,
  familyId: refreshTokens.familyId,
  expiresAt: refreshTokens.expiresAt,
  usedAt: refreshTokens.usedAt,
  revokedAt: refreshTokens.revokedAt,
};

export async function findRefreshToken(executor: Executor, token: string): Promise<RefreshTokenRow | null> {
  const [row] = await executor
    .select(refreshColumns)
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)));
  return row ?? null;
}

/**
 * Marks a live token used, atomically: of two concurrent refreshes of the same
 * token exactly one gets the row back (the other waits for the row lock, then
 * sees used_at set and takes the grace path).
 */
export async function claimRefreshToken(executor: Executor, token: string, now: Date): Promise<RefreshTokenRow | null> {
  const [row] = await executor
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(eq(refreshTokens.tokenHash, hashToken(token)), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning(refreshColumns);
  return row ?? null;
}

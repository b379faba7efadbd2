import { ROLES, type Role } from '@vigil/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { refreshTokens, tenants, users } from '../../db/schema/index.ts';
import type { Principal } from '../../http/permissions.ts';
import { hashToken } from '../../security/one-time-tokens.repository.ts';

/** Refresh tokens live 30 days (docs/decisions.md 20); each use replaces the token, not the family's end. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

/** A user as token claims need it, with what decides whether it may hold a session. */
export interface SessionUser {
  principal: Principal;
  deactivated: boolean;
  tenantDeleted: boolean;
}

const asRoles = (roles: string[]): Role[] => roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r));

/** The user's current claims (roles and tenant read now, so a changed role shows at the next refresh). */
export async function loadSessionUser(executor: Executor, userId: number): Promise<SessionUser | null> {
  const [row] = await executor
    .select({
      id: users.id,
      name: users.name,
      roles: users.roles,
      tenantId: users.tenantId,
      tenantName: tenants.name,
      deactivatedAt: users.deactivatedAt,
      tenantDeletedAt: tenants.deletedAt,
      sessionVersion: users.sessionVersion,
    })
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .where(eq(users.id, userId));
  if (!row) return null;
  return {
    principal: {
      userId: row.id,
      userName: row.name,
      tenantId: row.tenantId ?? -1,
      tenantName: row.tenantName ?? '',
      roles: asRoles(row.roles),
      sv: row.sessionVersion,
    },
    deactivated: row.deactivatedAt !== null,
    tenantDeleted: row.tenantDeletedAt !== null,
  };
}

/** Stores a refresh token of a family (new or continued). */
export async function storeRefreshToken(executor: Executor, userId: number, familyId: string, token: string, now: Date): Promise<void> {
  await executor.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
  });
}

/**
 * Ends every session of the user (password change or reset, deactivation, role change): its refresh
 * tokens, and its access tokens through the bumped session version. Callers announce it on the bus
 * (sessions.ts `revokeUserSessions`).
 */
export async function revokeUserTokens(executor: Executor, userId: number, now: Date): Promise<void> {
  await executor
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
  await executor
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** Ends one sign-in (logout, reuse detection); its access tokens carry the family as `sid`. */
export async function revokeFamilyTokens(executor: Executor, familyId: string, now: Date): Promise<void> {
  await executor
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

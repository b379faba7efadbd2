import { AUTH_MSG, looksLikeEmail, passwordProblem } from '@vigil/contracts';
import type { Database } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import { createEventBus } from '../../events/bus.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import { findAccountByEmail, insertUser, updateUser } from './auth.repository.ts';
import { revokeUserSessions } from './sessions.ts';

export type SuperAdminOutcome = 'created' | 'updated' | 'unchanged';

export class SuperAdminError extends Error {}

/**
 * Creates the superAdmin (roles ['superAdmin'], no tenant, verified) or brings an
 * existing one back to the given password, reactivated. Shared by the start-up task
 * (SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD) and the CLI. A password change ends the
 * account's sessions; the same password at every start changes nothing.
 * Refuses an email that belongs to a tenant user (it would hand them the platform).
 * A common password is accepted (the operator chose it explicitly) but reported
 * through `isCommonPassword` so callers can warn.
 */
export async function ensureSuperAdmin(
  database: Database,
  input: { email: string; password: string },
  now: Date,
): Promise<SuperAdminOutcome> {
  const email = input.email.trim().toLowerCase();
  if (!looksLikeEmail(email)) throw new SuperAdminError(`"${input.email}" is not an email address`);
  const problem = passwordProblem(input.password);
  if (problem && problem !== AUTH_MSG.passwordCommon) throw new SuperAdminError(problem);
  const existing = await inScope(database.db, allTenants, (tx) => findAccountByEmail(tx, email));
  if (!existing) {
    const passwordHash = await hashPassword(input.password);
    await inScope(database.db, allTenants, (tx) =>
      insertUser(tx, {
        email,
        name: 'Super Admin',
        phone: '',
        passwordHash,
        roles: ['superAdmin'],
        tenantId: null,
        emailVerifiedAt: now,
        now,
      }),
    );
    return 'created';
  }
  if (existing.tenantId !== null || !existing.roles.includes('superAdmin')) {
    throw new SuperAdminError(`${email} belongs to an account that is not a superAdmin; choose another email`);
  }
  const samePassword = await verifyPassword(existing.passwordHash, input.password);
  if (samePassword && existing.deactivatedAt === null && existing.emailVerifiedAt !== null) return 'unchanged';
  const passwordHash = samePassword ? existing.passwordHash! : await hashPassword(input.password);
  await inScope(database.db, allTenants, async (tx) => {
    await updateUser(tx, existing.id, { passwordHash, deactivatedAt: null, emailVerifiedAt: existing.emailVerifiedAt ?? now }, now);
    // Also run by the command line, without the server's bus: a publisher on the same database reaches it.
    if (!samePassword) await revokeUserSessions(createEventBus(database), tx, existing.id, now);
  });
  return 'updated';
}

export const isCommonPassword = (password: string) => passwordProblem(password) === AUTH_MSG.passwordCommon;

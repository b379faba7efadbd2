import { AUTH_MSG, MSG, ROLES, type Profile, type Role } from '@vigil/contracts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, unauthorized } from '../../http/errors.ts';
import type { Principal } from '../../http/permissions.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import { assertPasswordPolicy, joinName } from './account.service.ts';
import { findAccountById, isActive, updateUser, type AccountRow } from './auth.repository.ts';
import { issueTokens, revokeUserSessions, type TokenPair } from './sessions.ts';
import { ACCOUNT_RULE, accountKey, assertNotThrottled, recordFailure } from './throttle.ts';

/** The product's rule: the first word is the first name, the rest the last name. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { firstName: first, lastName: rest.join(' ') };
}

function toProfile(a: AccountRow): Profile {
  return {
    id: a.id,
    name: a.name,
    ...splitName(a.name),
    email: a.email,
    phone: a.phone,
    roles: a.roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r)),
    tenantId: a.tenantId ?? -1,
    tenantName: a.tenantName ?? '',
    tenantTimezone: a.tenantTimezone ?? 'UTC',
    emailVerified: a.emailVerifiedAt !== null,
  };
}

/** The caller's account; a still-valid access token of a deactivated user or deleted tenant gets 401. */
async function activeAccount(deps: AppDeps, principal: Principal): Promise<AccountRow> {
  const account = await inScope(deps.database.db, allTenants, (tx) => findAccountById(tx, principal.userId));
  if (!account || !isActive(account)) throw unauthorized();
  return account;
}

export async function getProfile(deps: AppDeps, principal: Principal): Promise<Profile> {
  return toProfile(await activeAccount(deps, principal));
}

export interface ProfileChanges {
  name?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
}

/** Name as a whole or by parts (a missing part keeps its current value), and phone. Email is not editable here. */
export async function updateProfile(deps: AppDeps, principal: Principal, changes: ProfileChanges): Promise<Profile> {
  const account = await activeAccount(deps, principal);
  const current = splitName(account.name);
  let name = account.name;
  if (changes.name !== undefined) name = joinName(changes.name);
  else if (changes.firstName !== undefined || changes.lastName !== undefined) {
    name = joinName(changes.firstName ?? current.firstName, changes.lastName ?? current.lastName);
  }
  const now = deps.clock.now();
  await inScope(deps.database.db, allTenants, (tx) =>
    updateUser(tx, account.id, { name, ...(changes.phone !== undefined && { phone: changes.phone }) }, now),
  );
  deps.log.info({ userId: account.id }, 'profile updated');
  return getProfile(deps, principal);
}

/**
 * Checks the caller's password for a sensitive action. Wrong passwords count on the
 * account's sign-in throttle, so this is no side door for guessing.
 */
async function assertOwnPassword(deps: AppDeps, account: AccountRow, password: string, wrongMsg: string): Promise<void> {
  const now = deps.clock.now();
  const key = accountKey(account.email);
  await inScope(deps.database.db, allTenants, (tx) => assertNotThrottled(tx, [key], now));
  if (await verifyPassword(account.passwordHash, password)) return;
  await inScope(deps.database.db, allTenants, (tx) => recordFailure(tx, key, ACCOUNT_RULE, now));
  deps.log.warn({ userId: account.id }, 'password check failed');
  throw badRequest(wrongMsg);
}

export interface ChangePasswordInput {
  email: string;
  currentPassword: string;
  newPassword: string;
}

/**
 * Changes the password, ends every session of the user (other devices included), and
 * starts a new one for this caller so they stay signed in.
 */
export async function changePassword(
  deps: AppDeps,
  principal: Principal,
  input: ChangePasswordInput,
): Promise<TokenPair & { msg: string }> {
  const account = await activeAccount(deps, principal);
  if (account.email.toLowerCase() !== input.email.toLowerCase()) throw badRequest(AUTH_MSG.emailNotYours);
  await assertOwnPassword(deps, account, input.currentPassword, AUTH_MSG.currentPasswordIncorrect);
  assertPasswordPolicy(input.newPassword);
  const passwordHash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  const tokens = await inScope(deps.database.db, allTenants, async (tx) => {
    await updateUser(tx, account.id, { passwordHash }, now);
    await revokeUserSessions(deps.bus, tx, account.id, now);
    return issueTokens(deps, account.id, tx);
  });
  deps.log.info({ userId: account.id }, 'password changed; other sessions revoked');
  return { msg: MSG.passwordUpdated, ...tokens };
}

/** Deactivates the caller's own account after a password check and ends its sessions. */
export async function deleteOwnAccount(deps: AppDeps, principal: Principal, password: string): Promise<void> {
  const account = await activeAccount(deps, principal);
  await assertOwnPassword(deps, account, password, AUTH_MSG.passwordIncorrect);
  const now = deps.clock.now();
  await inScope(deps.database.db, allTenants, async (tx) => {
    await updateUser(tx, account.id, { deactivatedAt: now }, now);
    await revokeUserSessions(deps.bus, tx, account.id, now);
  });
  deps.log.info({ userId: account.id, tenantId: account.tenantId ?? -1 }, 'account deactivated by its owner');
}

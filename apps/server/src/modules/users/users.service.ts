import { joinName, MSG, splitName, USER_MSG, type CreateUserBody, type Role, type UpdateUserBody, type User } from '@vigil/contracts';
import type { Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { isSuperAdmin, type Principal } from '../../http/permissions.ts';
import { createOneTimeToken } from '../../security/one-time-tokens.repository.ts';
import { revokeUserSessions, type SessionsBus } from '../auth/index.ts';
import * as repo from './users.repository.ts';

/** What the routes serve as the repository answers it. */
export { listUsers, publicUser } from './users.repository.ts';

/** The superAdmin reaches every tenant's users; an Admin only its own tenant's. */
export const reachOf = (p: Principal): repo.UserReach => (isSuperAdmin(p) ? 'all' : { tenantId: p.tenantId });

/** What to mail once the transaction has committed (a link must never point at a rolled-back user). */
export interface Invitation {
  userId: number;
  email: string;
  name: string;
  tenantName: string;
  token: string;
}

/** Whitespace collapsed, so `name` is always first + ' ' + last of its own split. */
const normalName = (name: string) => name.trim().split(/\s+/).join(' ');
const sameRoles = (a: Role[], b: Role[]) => a.length === b.length && a.every((r) => b.includes(r));

export async function visibleUser(tx: Tx, principal: Principal, id: number): Promise<repo.StoredUser> {
  const user = await repo.findManagedUser(tx, reachOf(principal), id);
  if (!user) throw notFound();
  return user;
}

/** A tenant a superAdmin picked in a form; `message` is the form's text for "choose a tenant". */
async function pickedTenant(tx: Tx, tenantId: number | null | undefined, message: string): Promise<number> {
  if (tenantId == null || !(await repo.lockLiveTenant(tx, tenantId))) throw badRequest(message);
  return tenantId;
}

/** Refuses a change that would leave `tenantId` with no active Admin (the user itself excluded). */
async function keepOneAdmin(tx: Tx, tenantId: number, userId: number): Promise<void> {
  await repo.lockLiveTenant(tx, tenantId);
  if ((await repo.countOtherAdmins(tx, tenantId, userId)) === 0) throw badRequest(USER_MSG.lastAdmin);
}

async function withUniqueEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw conflict(USER_MSG.emailTaken);
    throw err;
  }
}

async function newInvitation(tx: Tx, user: User, now: Date): Promise<Invitation> {
  await repo.expireInvitations(tx, user.id, now);
  const token = await createOneTimeToken(tx, user.id, 'invite', now);
  return { userId: user.id, email: user.email, name: user.name, tenantName: user.tenantName, token };
}

/** Add New User: no password; the invitation link lets the person choose one. Admins add to their own tenant only. */
export async function createUser(
  tx: Tx,
  principal: Principal,
  body: CreateUserBody,
  now: Date,
): Promise<{ user: User; invitation: Invitation }> {
  // A tenantId in the body counts only from the superAdmin (security rule 1).
  const tenantId = isSuperAdmin(principal) ? await pickedTenant(tx, body.tenantId, MSG.selectTenant) : principal.tenantId;
  const id = await withUniqueEmail(() =>
    repo.insertUser(tx, { tenantId, name: newName(body), email: body.email, phone: body.phone, roles: body.roles }),
  );
  const user = repo.publicUser(await visibleUser(tx, principal, id));
  return { user, invitation: await newInvitation(tx, user, now) };
}

/** A new user's name: firstName + lastName win over `name`, whose words fill a half left out (as the stored name does on edit). */
function newName(body: CreateUserBody): string {
  if (body.firstName === undefined && body.lastName === undefined) return normalName(body.name ?? '');
  const given = splitName(body.name ?? '');
  const firstName = body.firstName ?? given.firstName;
  if (!firstName) throw badRequest(MSG.firstName);
  return normalName(joinName(firstName, body.lastName ?? given.lastName));
}

/** Name from `name`, or from firstName + lastName (which win when both come). */
function nameChange(current: User, body: UpdateUserBody): string | undefined {
  if (body.firstName !== undefined || body.lastName !== undefined) {
    const name = joinName(body.firstName ?? current.firstName, body.lastName ?? current.lastName);
    if (!name) throw badRequest(MSG.firstName);
    return name;
  }
  return body.name === undefined ? undefined : normalName(body.name);
}

export async function updateUser(
  tx: Tx,
  principal: Principal,
  id: number,
  body: UpdateUserBody,
  now: Date,
  bus: SessionsBus,
): Promise<User> {
  const current = await visibleUser(tx, principal, id);
  let tenantId = current.tenantRef;
  if (isSuperAdmin(principal) && body.tenantId !== undefined) tenantId = await pickedTenant(tx, body.tenantId, MSG.editTenant);
  const roles = body.roles ?? current.roles;
  // A role means something only within a tenant.
  if (tenantId === null && roles.length > 0) throw badRequest(MSG.editTenant);

  const tenantChanged = tenantId !== current.tenantRef;
  const rolesChanged = !sameRoles(roles, current.roles);
  const losesAdmin = current.tenantRef !== null && current.roles.includes('Admin') && (tenantChanged || !roles.includes('Admin'));
  if (losesAdmin) await keepOneAdmin(tx, current.tenantRef!, id);

  const changes: repo.UserChanges = {
    name: nameChange(current, body),
    email: body.email,
    phone: body.phone,
    ...(rolesChanged && { roles }),
    ...(tenantChanged && tenantId !== null && { tenantId }),
  };
  await withUniqueEmail(() => repo.updateUser(tx, id, changes, now));
  // Claims are read at sign-in and refresh: ending the sessions makes new tokens carry the change.
  if (rolesChanged || tenantChanged) await revokeUserSessions(bus, tx, id, now);
  return repo.publicUser((await repo.findManagedUser(tx, 'all', id))!);
}

/** Deactivation: the row stays (authorship of comments, history); sessions end; sign-in is refused. */
export async function deleteUser(tx: Tx, principal: Principal, id: number, now: Date, bus: SessionsBus): Promise<void> {
  if (id === principal.userId) throw badRequest(USER_MSG.deleteSelf);
  const user = await visibleUser(tx, principal, id);
  if (user.tenantRef !== null && user.roles.includes('Admin')) await keepOneAdmin(tx, user.tenantRef, id);
  await repo.deactivateUser(tx, id, now);
  await revokeUserSessions(bus, tx, id, now);
}

/** A fresh invitation for someone who has not chosen a password yet (the old link stops working). */
export async function reinvite(tx: Tx, principal: Principal, id: number, now: Date): Promise<Invitation> {
  const user = await visibleUser(tx, principal, id);
  if (!user.invited) throw conflict(USER_MSG.alreadyActive);
  return newInvitation(tx, user, now);
}

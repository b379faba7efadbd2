import { PLATFORM_TENANT_FIELDS, TENANT_MSG, type CreateTenantBody, type Tenant, type UpdateTenantBody } from '@vigil/contracts';
import type { Tx } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { isSuperAdmin, type Principal } from '../../http/permissions.ts';
import { issueTokens, revokeUserSessions, type SessionsBus, type TokenPair } from '../auth/index.ts';
import { createDefaultChannel } from '../notifications/index.ts';
import { announceTenantChanged, type TenantsBus } from './tenant-events.ts';
import * as repo from './tenants.repository.ts';

/** What the routes serve as the repository answers it. */
export { listTenantOptions, listTenants } from './tenants.repository.ts';

/** Commercial terms (free portals, free tier, discount) are the platform's to set (docs/decisions.md 36). */
export function refusePlatformFields(principal: Principal, body: Partial<Record<(typeof PLATFORM_TENANT_FIELDS)[number], unknown>>): void {
  if (isSuperAdmin(principal)) return;
  if (PLATFORM_TENANT_FIELDS.some((f) => body[f] !== undefined)) throw forbidden(TENANT_MSG.platformFieldsOnly);
}

/**
 * The tenant a caller may read or change: the superAdmin any live tenant, an
 * Admin only its own; everything else is "not found" (no existence oracle).
 */
export async function visibleTenant(tx: Tx, principal: Principal, id: number): Promise<Tenant> {
  if (!isSuperAdmin(principal) && principal.tenantId !== id) throw notFound();
  const tenant = await repo.findTenant(tx, id);
  if (!tenant) throw notFound();
  return tenant;
}

export async function updateTenantInfo(
  tx: Tx,
  principal: Principal,
  id: number,
  body: UpdateTenantBody,
  now: Date,
  bus: TenantsBus,
): Promise<Tenant> {
  await visibleTenant(tx, principal, id);
  refusePlatformFields(principal, body);
  const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as repo.TenantChanges;
  if (!(await repo.updateTenant(tx, id, changes, now))) throw notFound();
  await announceTenantChanged(bus, tx, id);
  return (await repo.findTenant(tx, id))!;
}

/** superAdmin: a tenant with any terms; its users come after (Users page). It starts with the "Admins" channel. */
export async function createTenantAsPlatform(deps: Pick<AppDeps, 'secretBox' | 'clock'>, tx: Tx, body: CreateTenantBody): Promise<Tenant> {
  const tenant = await repo.insertTenant(tx, body);
  await createDefaultChannel(deps, tx, tenant.id);
  return tenant;
}

/**
 * A signed-in person with no tenant and no roles creates their own tenant and
 * becomes its Admin. Runs as platform work (the caller has no tenant scope yet);
 * the user row is re-read and locked, so a stale token or a double submit cannot
 * attach one person to two tenants. Answers tokens that carry the new tenant.
 */
export async function createOwnTenant(deps: AppDeps, principal: Principal, body: CreateTenantBody): Promise<Tenant & TokenPair> {
  refusePlatformFields(principal, body);
  return inScope(deps.database.db, allTenants, async (tx) => {
    const user = await repo.lockUserForOnboarding(tx, principal.userId);
    if (!user || user.deactivatedAt) throw forbidden();
    if (user.tenantId !== null || user.roles.length > 0) throw forbidden(TENANT_MSG.alreadyInTenant);
    const now = deps.clock.now();
    const tenant = await repo.insertTenant(tx, body);
    await repo.makeTenantAdmin(tx, principal.userId, tenant.id, now);
    await createDefaultChannel(deps, tx, tenant.id);
    const tokens = await issueTokens(deps, principal.userId, tx);
    return { ...tenant, ...tokens };
  });
}

/** Soft delete: rows stay; every user of the tenant loses its sessions (and cannot sign in again). */
export async function deleteTenant(tx: Tx, id: number, now: Date, bus: SessionsBus): Promise<void> {
  if (!(await repo.softDeleteTenant(tx, id, now))) throw notFound();
  await announceTenantChanged(bus, tx, id);
  for (const userId of await repo.userIdsOfTenant(tx, id)) await revokeUserSessions(bus, tx, userId, now);
}

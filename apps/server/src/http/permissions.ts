import { may, type Action, type Role } from '@vigil/contracts';

/** The table lives in the contracts (docs/decisions.md 37), so the web app offers what the server allows. */
export { PERMISSIONS, type Action } from '@vigil/contracts';

/**
 * 'public': no token. 'self': any signed-in user, including one with no tenant yet
 * (profile, password, tenant creation). 'onboarding': signed-in user with no
 * tenant, or an Admin (tenant creation and billing). Otherwise an action above.
 */
export type Permission = 'public' | 'self' | 'onboarding' | Action;

export interface Principal {
  userId: number;
  userName: string;
  /** -1 when the user has no tenant yet. */
  tenantId: number;
  tenantName: string;
  roles: Role[];
  /**
   * The user's session version when the token was signed (`sv`) and its session, the refresh
   * family (`sid`): a token whose version is behind or whose family was revoked is refused
   * (security/session-state.ts). A token without `sv` counts as version 0.
   */
  sv?: number;
  sid?: string;
}

export const isSuperAdmin = (p: Principal) => p.roles.includes('superAdmin');
export const hasTenant = (p: Principal) => p.tenantId > 0;

/** Whether the principal may do the action (tenant ownership is checked by scoping, not here). */
export function allows(permission: Permission, p: Principal): boolean {
  if (permission === 'public' || permission === 'self') return true;
  if (permission === 'onboarding') return !hasTenant(p) ? !isSuperAdmin(p) : p.roles.includes('Admin');
  return may(permission, p);
}

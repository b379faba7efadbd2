import type { Role } from '@vigil/contracts';

/**
 * docs/decisions.md 37 as data: which roles may do each action. Every registered
 * route names one of these (or 'public'); the route guard test checks it.
 */
export const PERMISSIONS = {
  /** Tenants list/create/delete, any tenant's info. */
  'tenants:manage': ['superAdmin'],
  /** Read and update one's own tenant info (superAdmin: any). */
  'tenants:own': ['superAdmin', 'Admin'],
  'users:manage': ['superAdmin', 'Admin'],
  'portals:read': ['superAdmin', 'Admin', 'Project Manager', 'Salesman'],
  'portals:write': ['Admin', 'Project Manager'],
  'monitoring:read': ['superAdmin', 'Admin', 'Project Manager', 'Salesman'],
  'cases:write': ['Admin', 'Project Manager'],
  'comments:write': ['Admin', 'Project Manager', 'Salesman'],
  'alerts:write': ['Admin', 'Project Manager'],
  'licenses:write': ['Admin', 'Project Manager', 'Salesman'],
  'reports:write': ['Admin', 'Project Manager', 'Salesman'],
  'billing:manage': ['Admin'],
  /** Anything else: read (superAdmin: all tenants). */
  read: ['superAdmin', 'Admin', 'Project Manager', 'Salesman'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

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
  const allowed: readonly Role[] = PERMISSIONS[permission];
  // A user with no tenant reaches only its profile, tenant creation and billing (docs/decisions.md 37).
  if (!hasTenant(p) && !isSuperAdmin(p)) return false;
  return p.roles.some((r) => allowed.includes(r));
}

import type { Role } from './enums.ts';

/**
 * docs/decisions.md 37 as data: which roles may do each action. The server names one of these (or
 * 'public', 'self', 'onboarding') on every route and enforces it; the web app reads the same table to
 * decide which actions, menu items and routes to offer (`may`).
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
  /** Acknowledge an open alert (docs/alerts.md). */
  'alerts:ack': ['Admin', 'Project Manager', 'Salesman'],
  /** Notification channels: create, edit, delete, test (docs/notifications.md); every tenant role reads them. */
  'notifications:write': ['Admin', 'Project Manager'],
  /** Maintenance windows: create, edit, delete; every tenant role reads them. */
  'maintenance:write': ['Admin', 'Project Manager'],
  'licenses:write': ['Admin', 'Project Manager', 'Salesman'],
  'reports:write': ['Admin', 'Project Manager', 'Salesman'],
  'billing:manage': ['Admin'],
  /** Anything else: read (superAdmin: all tenants). */
  read: ['superAdmin', 'Admin', 'Project Manager', 'Salesman'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

/** Who is asking: the roles and whether the user belongs to a tenant yet (tenantId > 0). */
export interface Asker {
  roles: readonly Role[];
  tenantId: number;
}

/**
 * Whether the asker may do the action (tenant ownership is checked by scoping, not here). A user with
 * no tenant reaches only its profile, tenant creation and billing (docs/decisions.md 37).
 */
export function may(action: Action, asker: Asker): boolean {
  const superAdmin = asker.roles.includes('superAdmin');
  if (asker.tenantId <= 0 && !superAdmin) return false;
  const allowed: readonly Role[] = PERMISSIONS[action];
  return asker.roles.some((r) => allowed.includes(r));
}

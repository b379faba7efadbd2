import { may, type Action, type Asker } from '@vigil/contracts';
import { useAuth } from '../state/hooks.ts';

type Who = Asker;

/**
 * The web app's reading of the role table (`PERMISSIONS` in the contracts, docs/web.md "Roles"): the
 * same `may` the server enforces decides which actions, menu items and routes a user is offered.
 */
export const mayDo = (action: Action, who: Who): boolean => may(action, who);

/** `may(action)` for the signed-in user. */
export function useMay(): (action: Action) => boolean {
  const auth = useAuth();
  return (action) => may(action, auth);
}

/** Whether the signed-in user may do one action. */
export function useCan(action: Action): boolean {
  return may(action, useAuth());
}

/** A user who belongs to no tenant yet (and is not the superAdmin): only Settings, profile and help are offered. */
export const needsTenant = (who: Who): boolean => !who.roles.includes('superAdmin') && who.tenantId <= 0;

/**
 * Dashboard routes that need an action beyond reading (docs/web.md "Roles"): the first matching path
 * prefix decides. A user who may not shows the Forbidden page instead of the page's failing calls.
 */
export const ROUTE_ACTIONS: readonly { path: RegExp; action: Action }[] = [
  { path: /^\/dashboards\/users(\/|$)/, action: 'users:manage' },
  { path: /^\/dashboards\/reports\/create\/?$/, action: 'reports:write' },
];

/** Paths a user without a tenant may open: Settings (where the tenant is created), the profile, help. */
const FIRST_RUN_PATHS = /^\/(dashboards\/(settings|profile|help)|useraccount\/profile)(\/|$)/;

export type RouteAccess = 'ok' | 'needs-tenant' | 'forbidden';

/** What the shell does with a path for this user: show it, lead to tenant set-up, or show the Forbidden page. */
export function routeAccess(pathname: string, who: Who): RouteAccess {
  if (needsTenant(who) && !FIRST_RUN_PATHS.test(pathname)) return 'needs-tenant';
  const rule = ROUTE_ACTIONS.find((r) => r.path.test(pathname));
  if (rule && !may(rule.action, who)) return 'forbidden';
  return 'ok';
}

import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  DashboardOutlined,
  FileTextOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { Role } from '@vigil/contracts';
import { mayDo, needsTenant } from '../../lib/session/permissions.ts';

export interface NavItem {
  key: string;
  label: string;
  icon: ReactNode;
}

/**
 * Side navigation by role (docs/web.md "Shell", "Roles"): Tenants (superAdmin) or Pulse first; Users for
 * whoever may manage users (superAdmin, Admin). A user with no tenant yet is offered only Settings,
 * where the tenant is set up.
 */
export function navItemsFor(roles: readonly Role[], tenantId: number): NavItem[] {
  const who = { roles, tenantId };
  if (needsTenant(who)) return [{ key: '/dashboards/settings', label: 'Settings', icon: <SettingOutlined /> }];
  const superAdmin = roles.includes('superAdmin');
  const items: NavItem[] = [
    superAdmin
      ? { key: '/dashboards/tenants', label: 'Tenants', icon: <ApartmentOutlined /> }
      : { key: '/dashboards/pulse', label: 'Pulse', icon: <DashboardOutlined /> },
    { key: '/dashboards/portals', label: 'Portals', icon: <AppstoreOutlined /> },
    { key: '/dashboards/cases', label: 'Cases', icon: <SolutionOutlined /> },
    { key: '/dashboards/reports', label: 'Reports', icon: <FileTextOutlined /> },
    { key: '/dashboards/alerts', label: 'Alerts', icon: <AlertOutlined /> },
  ];
  if (mayDo('users:manage', who)) items.push({ key: '/dashboards/users', label: 'Users', icon: <TeamOutlined /> });
  return items;
}

/** The nav key a path belongs to (its first two segments). */
export const selectedKeyOf = (pathname: string) => pathname.split('/').slice(0, 3).join('/');

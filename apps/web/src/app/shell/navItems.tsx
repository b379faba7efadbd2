import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  DashboardOutlined,
  FileTextOutlined,
  SolutionOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { Role } from '@vigil/contracts';

export interface NavItem {
  key: string;
  label: string;
  icon: ReactNode;
}

/** Side navigation by role (docs/web.md "Shell"): Tenants (superAdmin) or Pulse first; Users for superAdmin/Admin. */
export function navItemsFor(roles: readonly Role[]): NavItem[] {
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
  if (superAdmin || roles.includes('Admin')) items.push({ key: '/dashboards/users', label: 'Users', icon: <TeamOutlined /> });
  return items;
}

/** The nav key a path belongs to (its first two segments). */
export const selectedKeyOf = (pathname: string) => pathname.split('/').slice(0, 3).join('/');

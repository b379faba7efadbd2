import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { setNavigator } from '../lib/navigation.ts';
import { DashboardIndex, RequireSession, RequireSuperAdmin } from './guards.tsx';
import { RootLayout } from './RootLayout.tsx';
import { RouteError } from './RouteError.tsx';
import type { RouteHandle } from '../lib/routeHandle.ts';

/** Route-level code splitting: a page module's default export becomes the route component. */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });
const h = (title: string, crumb = title): { handle: RouteHandle } => ({ handle: { title, crumb } });

const dashboardChildren: RouteObject[] = [
  { index: true, element: <DashboardIndex /> },
  { path: 'pulse', ...h('Pulse'), lazy: page(() => import('../features/pulse/pages/PulsePage.tsx')) },
  {
    path: 'portals',
    ...h('Portals'),
    children: [
      { index: true, lazy: page(() => import('../features/portals/pages/PortalsPage.tsx')) },
      { path: ':id', ...h('Portal'), lazy: page(() => import('../features/portals/pages/PortalDetailPage.tsx')) },
      { path: ':id/case', ...h('Portal Cases', 'Cases'), lazy: page(() => import('../features/portals/pages/PortalCasesPage.tsx')) },
    ],
  },
  { path: 'devices/:id', ...h('Device'), lazy: page(() => import('../features/devices/pages/DevicePage.tsx')) },
  {
    path: 'cases',
    ...h('Cases'),
    children: [
      { index: true, lazy: page(() => import('../features/cases/pages/CasesPage.tsx')) },
      { path: ':id', ...h('Case'), lazy: page(() => import('../features/cases/pages/CaseDetailPage.tsx')) },
    ],
  },
  {
    path: 'reports',
    ...h('Reports'),
    children: [
      { index: true, lazy: page(() => import('../features/reports/pages/ReportsPage.tsx')) },
      { path: 'create', ...h('Create Report', 'Create'), lazy: page(() => import('../features/reports/pages/ReportCreatePage.tsx')) },
      { path: ':id', ...h('Report'), lazy: page(() => import('../features/reports/pages/ReportDetailPage.tsx')) },
    ],
  },
  {
    path: 'alerts',
    ...h('Alerts'),
    children: [
      { index: true, lazy: page(() => import('../features/alerts/pages/AlertsPage.tsx')) },
      { path: ':id', ...h('Alert'), lazy: page(() => import('../features/alerts/pages/AlertDetailPage.tsx')) },
    ],
  },
  {
    path: 'tenants',
    ...h('Tenants'),
    element: <RequireSuperAdmin />,
    children: [
      { index: true, lazy: page(() => import('../features/tenants/pages/TenantsPage.tsx')) },
      { path: ':id', ...h('Tenant'), lazy: page(() => import('../features/tenants/pages/TenantDetailPage.tsx')) },
    ],
  },
  {
    path: 'settings',
    ...h('Settings'),
    children: [
      { index: true, lazy: page(() => import('../features/settings/pages/SettingsPage.tsx')) },
      { path: 'new', ...h('Settings Demo', 'New'), lazy: page(() => import('../features/settings/pages/SettingsDemoPage.tsx')) },
      {
        path: 'notifications/deliveries',
        ...h('Delivery Log'),
        lazy: page(() => import('../features/notifications/pages/DeliveriesPage.tsx')),
      },
    ],
  },
  {
    path: 'users',
    ...h('Users'),
    children: [
      { index: true, lazy: page(() => import('../features/users/pages/UsersPage.tsx')) },
      { path: ':id', ...h('User'), lazy: page(() => import('../features/users/pages/UserDetailPage.tsx')) },
    ],
  },
  { path: 'search', ...h('Search'), lazy: page(() => import('../features/search/pages/SearchPage.tsx')) },
  { path: 'help', ...h('Help'), lazy: page(() => import('../features/misc/pages/HelpPage.tsx')) },
  { path: 'profile', ...h('Profile'), lazy: page(() => import('../features/settings/pages/ProfilePage.tsx')) },
];

const shell = page(() => import('./shell/DashboardLayout.tsx'));

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown while the first lazy route of a cold load arrives.
    hydrateFallbackElement: <div className="vigil-progress" role="progressbar" aria-label="Loading page" />,
    children: [
      {
        lazy: page(() => import('../features/public/PublicLayout.tsx')),
        children: [
          { index: true, ...h('Security device monitoring', 'Home'), lazy: page(() => import('../features/public/pages/LandingPage.tsx')) },
          { path: 'why-us', ...h('Why Vigil'), lazy: page(() => import('../features/public/pages/WhyUsPage.tsx')) },
          { path: 'pricing', ...h('Pricing'), lazy: page(() => import('../features/public/pages/PricingPage.tsx')) },
          { path: 'about', ...h('About'), lazy: page(() => import('../features/public/pages/AboutPage.tsx')) },
          { path: 'contact', ...h('Contact'), lazy: page(() => import('../features/public/pages/ContactPage.tsx')) },
        ],
      },
      {
        path: 'auth',
        lazy: page(() => import('../features/auth/AuthLayout.tsx')),
        children: [
          { index: true, ...h('Account'), lazy: page(() => import('../features/auth/pages/AuthIndexPage.tsx')) },
          { path: 'signin', ...h('Sign in'), lazy: page(() => import('../features/auth/pages/SignInPage.tsx')) },
          { path: 'signup', ...h('Sign up'), lazy: page(() => import('../features/auth/pages/SignUpPage.tsx')) },
          { path: 'password-reset', ...h('Reset password'), lazy: page(() => import('../features/auth/pages/PasswordResetPage.tsx')) },
          {
            path: 'password-confirmation',
            ...h('Choose a password'),
            lazy: page(() => import('../features/auth/pages/PasswordConfirmationPage.tsx')),
          },
          { path: 'welcome', ...h('Welcome'), lazy: page(() => import('../features/auth/pages/WelcomePage.tsx')) },
          { path: 'verify-email', ...h('Verify email'), lazy: page(() => import('../features/auth/pages/VerifyEmailPage.tsx')) },
          { path: 'account-delete', ...h('Account'), lazy: page(() => import('../features/auth/pages/AccountDeletePage.tsx')) },
        ],
      },
      {
        path: 'dashboards',
        ...h('Dashboards'),
        element: <RequireSession />,
        children: [{ lazy: shell, children: dashboardChildren }],
      },
      {
        path: 'useraccount',
        element: <RequireSession />,
        children: [
          {
            lazy: shell,
            children: [{ path: 'profile', ...h('Profile'), lazy: page(() => import('../features/settings/pages/ProfilePage.tsx')) }],
          },
        ],
      },
      { path: '*', lazy: page(() => import('./ErrorPage.tsx').then((m) => ({ default: m.NotFound }))) },
    ],
  },
];

export const router = createBrowserRouter(routes);
setNavigator((to) => void router.navigate(to));

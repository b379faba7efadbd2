import { configureStore } from '@reduxjs/toolkit';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { MSG, type Role } from '@vigil/contracts';
import { authReducer, signedOutState, type AuthState } from '../../lib/session/authSlice.ts';
import { routeAccess } from '../../lib/session/permissions.ts';
import { navItemsFor } from './navItems.tsx';
import { RouteGate } from './RouteGate.tsx';

afterEach(cleanup);

const labels = (roles: Role[], tenantId = 7) => navItemsFor(roles, tenantId).map((i) => i.label);

describe('the side navigation follows the role table', () => {
  it('offers Users only to who may manage users, Tenants first to the superAdmin', () => {
    expect(labels(['superAdmin'], -1)).toEqual(['Tenants', 'Portals', 'Cases', 'Reports', 'Alerts', 'Users']);
    expect(labels(['Admin'])).toEqual(['Pulse', 'Portals', 'Cases', 'Reports', 'Alerts', 'Users']);
    expect(labels(['Project Manager'])).toEqual(['Pulse', 'Portals', 'Cases', 'Reports', 'Alerts']);
    expect(labels(['Salesman'])).toEqual(['Pulse', 'Portals', 'Cases', 'Reports', 'Alerts']);
  });

  it('offers a user with no tenant only Settings', () => {
    expect(labels([], -1)).toEqual(['Settings']);
    expect(labels(['Admin'], -1)).toEqual(['Settings']);
  });
});

describe('route access', () => {
  const who = (roles: Role[], tenantId = 7) => ({ roles, tenantId });
  it('forbids Users to Project Managers and Salesmen, allows it to Admin and superAdmin', () => {
    expect(routeAccess('/dashboards/users', who(['Project Manager']))).toBe('forbidden');
    expect(routeAccess('/dashboards/users/3', who(['Salesman']))).toBe('forbidden');
    expect(routeAccess('/dashboards/users', who(['Admin']))).toBe('ok');
    expect(routeAccess('/dashboards/users', who(['superAdmin'], -1))).toBe('ok');
  });

  it('forbids report creation to the superAdmin (tenant-only) but not its reading', () => {
    expect(routeAccess('/dashboards/reports/create', who(['superAdmin'], -1))).toBe('forbidden');
    expect(routeAccess('/dashboards/reports/5', who(['superAdmin'], -1))).toBe('ok');
    expect(routeAccess('/dashboards/reports/create', who(['Salesman']))).toBe('ok');
  });

  it('leads a user with no tenant to Settings from anywhere but Settings, profile and help', () => {
    for (const path of ['/dashboards/pulse', '/dashboards/portals', '/dashboards/cases/1', '/dashboards/users'])
      expect(routeAccess(path, who([], -1))).toBe('needs-tenant');
    for (const path of ['/dashboards/settings', '/dashboards/profile', '/dashboards/help', '/useraccount/profile'])
      expect(routeAccess(path, who([], -1))).toBe('ok');
  });
});

function renderAt(path: string, auth: Partial<AuthState>) {
  const store = configureStore({
    reducer: { auth: authReducer },
    preloadedState: { auth: { ...signedOutState, accessTaken: 't', ...auth } },
  });
  const gated = (text: string) => (
    <RouteGate>
      <p>{text}</p>
    </RouteGate>
  );
  const router = createMemoryRouter(
    [
      { path: '/dashboards/users', element: gated('users page') },
      { path: '/dashboards/reports/create', element: gated('create report page') },
      { path: '/dashboards/pulse', element: gated('pulse page') },
      { path: '/dashboards/settings', element: gated('settings page') },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

describe('RouteGate', () => {
  it('shows a Project Manager one friendly Forbidden page on Users, not the page', () => {
    renderAt('/dashboards/users', { roles: ['Project Manager'], tenantId: 7 });
    expect(screen.getByText('You do not have access to this page')).toBeTruthy();
    expect(screen.getByText('Forbidden. You do not have access. Ask your Admin if you need it.')).toBeTruthy();
    expect(screen.queryByText('users page')).toBeNull();
  });

  it("gives the superAdmin the product's redirect-to-tenant message on a tenant-only route", () => {
    renderAt('/dashboards/reports/create', { roles: ['superAdmin'], tenantId: -1 });
    expect(screen.getByText(MSG.tenantOnly)).toBeTruthy();
    expect(screen.queryByText('create report page')).toBeNull();
  });

  it('sends a user with no tenant from Pulse to Settings', async () => {
    const router = renderAt('/dashboards/pulse', { roles: [], tenantId: -1 });
    expect(await screen.findByText('settings page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboards/settings');
  });

  it('shows the page to a role that may open it', () => {
    renderAt('/dashboards/users', { roles: ['Admin'], tenantId: 7 });
    expect(screen.getByText('users page')).toBeTruthy();
  });
});

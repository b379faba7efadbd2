import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { MSG, STATUS_MESSAGES } from '@vigil/contracts';
import { homeOf } from '../../lib/session/authSlice.ts';
import { routeAccess } from '../../lib/session/permissions.ts';
import { useAuth } from '../../lib/state/hooks.ts';

/** The one page a route shows to a role that may not open it (docs/web.md "Roles"): no calls, no toasts. */
export function ForbiddenPage({ superAdmin }: { superAdmin: boolean }) {
  const auth = useAuth();
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="You do not have access to this page"
      subTitle={superAdmin ? MSG.tenantOnly : `${STATUS_MESSAGES[403]} Ask your Admin if you need it.`}
      extra={
        <Button type="primary" onClick={() => navigate(homeOf(auth))}>
          Go to your home page
        </Button>
      }
    />
  );
}

/**
 * Wraps the shell's page outlet: a user with no tenant is led to Settings (where the tenant is set
 * up) from any other dashboard route; a route the role may not open shows the Forbidden page.
 */
export function RouteGate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const { pathname } = useLocation();
  const access = routeAccess(pathname, auth);
  if (access === 'needs-tenant') return <Navigate to="/dashboards/settings" replace />;
  if (access === 'forbidden') return <ForbiddenPage superAdmin={auth.roles.includes('superAdmin')} />;
  return <>{children}</>;
}

import { Navigate, Outlet, useLocation } from 'react-router';
import { isSuperAdmin } from '../lib/session/authSlice.ts';
import { useAppSelector, useAuth } from '../lib/state/hooks.ts';

export const SIGN_IN = '/auth/signin';

/** /dashboards and /useraccount need a session (docs/web.md "Routes"). */
export function RequireSession() {
  const auth = useAuth();
  const location = useLocation();
  const signingOut = useAppSelector((s) => s.session.signingOut);
  if (!auth.accessTaken && signingOut) return null;
  if (!auth.accessTaken) return <Navigate to={SIGN_IN} replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

/** The tenants route is for the superAdmin; others go to sign-in (docs/web.md "Routes"). */
export function RequireSuperAdmin() {
  const auth = useAuth();
  if (!isSuperAdmin(auth)) return <Navigate to={SIGN_IN} replace />;
  return <Outlet />;
}

/** /dashboards index: tenants for the superAdmin, pulse for everyone else. */
export function DashboardIndex() {
  const auth = useAuth();
  return <Navigate to={isSuperAdmin(auth) ? '/dashboards/tenants' : '/dashboards/pulse'} replace />;
}

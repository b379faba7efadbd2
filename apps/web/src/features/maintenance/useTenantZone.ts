import { useCan } from '../../lib/session/permissions.ts';
import { useAuth } from '../../lib/state/hooks.ts';
import { useTenantZoneQuery } from './api.ts';
import { browserZone } from './zone.ts';

export interface TenantZone {
  /** The IANA zone the times are shown and entered in. */
  zone: string;
  /** Whether it is the tenant's own zone (else the browser's, named on the page). */
  isTenant: boolean;
  /** False while the tenant's zone is still loading (the dialog waits rather than switch zones under the user). */
  ready: boolean;
}

/**
 * The zone maintenance times are shown and entered in (docs/web-pages.md "Maintenance windows"): the
 * tenant's `timezone`, which the server repeats recurring windows in. Only roles that read the tenant's
 * settings (`tenants:own`) get it from the server; others use the browser's zone, which the card and
 * the dialog name, so a time is never read in an unnamed zone. The instants are exact either way.
 */
export function useTenantZone(): TenantZone {
  const auth = useAuth();
  const readsTenant = useCan('tenants:own') && auth.tenantId > 0;
  const tenant = useTenantZoneQuery(auth.tenantId, { skip: !readsTenant });
  const zone = tenant.data;
  const ready = !readsTenant || !tenant.isLoading;
  return zone ? { zone, isTenant: true, ready } : { zone: browserZone(), isTenant: false, ready };
}

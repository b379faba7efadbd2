import { useMeQuery } from '../auth/index.ts';
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
 * tenant's `timezone`, which the server repeats recurring windows in, from the signed-in user's profile
 * (`tenantTimezone`, every role reads its own profile). Until the profile has loaded, or if it cannot
 * be read, the browser's zone, which the card and the dialog then name, so a time is never read in an
 * unnamed zone. The instants are exact either way.
 */
export function useTenantZone(): TenantZone {
  const me = useMeQuery();
  const zone = me.data?.data.tenantTimezone;
  return zone ? { zone, isTenant: true, ready: true } : { zone: browserZone(), isTenant: false, ready: !me.isLoading };
}

import { MSG } from '@vigil/contracts';
import { notify } from './notify.ts';

/**
 * Tenant-only actions (add portal, case, alert; case from an alert): the superAdmin
 * never sees their buttons; if it reaches one anyway it gets the product's redirect-to-tenant
 * message instead of a call the server would refuse.
 */
export function tenantOnly(superAdmin: boolean, action: () => void): () => void {
  return () => (superAdmin ? notify.warning(MSG.tenantOnly) : action());
}

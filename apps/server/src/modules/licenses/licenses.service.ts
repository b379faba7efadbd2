import { LICENSE_MSG, type License } from '@vigil/contracts';
import type { Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import type { EventBus } from '../../events/bus.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { visiblePortal } from '../cases/index.ts';
import { openLicenseRenewalAlerts, resolveLicenseAlerts } from '../alerts/index.ts';
import { licenseEndDate } from './license-dates.ts';
import { deleteLicense, findLicense, insertLicense } from './licenses.repository.ts';

/** What the routes serve as the repository answers it. */
export { listLicenses } from './licenses.repository.ts';

export interface LicenseInput {
  portalId: number;
  deviceType: number;
  deviceCount: number;
  terms: number;
  startDate: string;
  bodyCustomerId?: number;
}

/** Adds a license and, in the same transaction, its renewal alert when it already ends within 90 days. */
export async function addLicense(tx: Tx, scope: Scope, bus: EventBus, input: LicenseInput, now: Date): Promise<License> {
  if (input.bodyCustomerId !== undefined && input.bodyCustomerId !== input.portalId) throw badRequest(LICENSE_MSG.customerMismatch);
  const portal = await visiblePortal(tx, scope, input.portalId);
  const id = await insertLicense(tx, {
    tenantId: portal.tenantId,
    portalId: portal.id,
    deviceType: input.deviceType,
    deviceCount: input.deviceCount,
    terms: input.terms,
    startDate: input.startDate,
    endDate: licenseEndDate(input.startDate, input.terms),
    now,
  });
  await openLicenseRenewalAlerts(tx, bus, now, { tenantId: portal.tenantId, licenseId: id });
  return (await findLicense(tx, scope, id, now))!;
}

export async function removeLicense(tx: Tx, scope: Scope, id: number, now: Date): Promise<void> {
  const tenantId = await deleteLicense(tx, scope, id);
  if (tenantId === undefined) throw notFound();
  await resolveLicenseAlerts(tx, tenantId, id, now);
}

import { allTenants, inScope } from '../db/scope.ts';
import { openLicenseRenewalAlerts } from '../modules/alerts/index.ts';
import type { Job } from './scheduler.ts';

/**
 * License Renewal Pending alerts (docs/decisions.md 29): the daily scan opens a type-1
 * alert for each license whose end date is within 90 days, once per license ever.
 * It is claimed hourly rather than at UTC midnight so each tenant's own midnight
 * (tenants.timezone) is honoured within the hour; extra runs are no-ops.
 */
export const licenseScanJob: Job = {
  name: 'license-scan',
  everyMs: 3_600_000,
  run: async (deps) => {
    await inScope(deps.database.db, allTenants, (tx) => openLicenseRenewalAlerts(tx, deps.bus, deps.clock.now()));
  },
};

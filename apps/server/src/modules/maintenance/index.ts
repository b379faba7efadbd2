/**
 * What other parts may use of maintenance: the reconciliation the job runs (jobs/maintenance.job.ts), and
 * scheduling a window as a user (the demo seed).
 */
export { reconcileAllTenants, reconcileMaintenance, type ReconcileResult } from './reconcile.service.ts';
export { createWindow } from './maintenance.service.ts';

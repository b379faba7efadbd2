/** What other parts may use of maintenance: the reconciliation the job runs (jobs/maintenance.job.ts). */
export { reconcileAllTenants, reconcileMaintenance, type ReconcileResult } from './reconcile.service.ts';

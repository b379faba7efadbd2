import { reconcileAllTenants } from '../modules/maintenance/index.ts';
import type { Job } from './scheduler.ts';

/**
 * Maintenance windows (docs/maintenance.md): every 5 s, as the offline alerts, devices whose window's
 * occurrence began enter maintenance and those whose occurrence ended leave it (its end is the instant
 * written to history, not the tick's time). One transaction per tick, every tenant at once.
 */
export const maintenanceJob: Job = {
  name: 'maintenance-windows',
  everyMs: 5_000,
  run: async (deps) => {
    await reconcileAllTenants(deps, deps.clock.now());
  },
};

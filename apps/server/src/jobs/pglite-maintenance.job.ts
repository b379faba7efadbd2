import { maintainPglite } from '../db/pglite-maintenance.ts';
import type { Job } from './scheduler.ts';

export { autovacuumOffWarning, maintainPglite, type TableMaintenance } from '../db/pglite-maintenance.ts';

/** Every minute, as autovacuum's default naptime; scheduled on PGlite only (jobs/registry.ts). */
export const pgliteMaintenanceJob: Job = {
  name: 'pglite-maintenance',
  everyMs: 60_000,
  run: async (deps) => {
    const done = await maintainPglite(deps.database);
    if (done.length > 0) deps.log.info({ tables: done }, 'embedded database maintenance');
  },
};

import { autovacuumOffWarning } from '../db/pglite-maintenance.ts';
import type { StartupTask } from '../startup.ts';
import { jobsFor } from './registry.ts';
import { scheduleJobs } from './scheduler.ts';

/**
 * At start: the timers of every periodic job of the registry (registry.ts; the embedded database's
 * vacuum and analyze on PGlite only, and on PostgreSQL a warning when autovacuum is off); the
 * returned function stops them.
 */
export const periodicJobsStartup: StartupTask = async (deps) => {
  const warning = await autovacuumOffWarning(deps.database);
  if (warning) deps.log.warn(warning);
  return scheduleJobs(deps, jobsFor(deps));
};

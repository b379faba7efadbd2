import { offlineSweepJob } from '../../jobs/offline-sweep.ts';
import { autovacuumOffWarning, pgliteMaintenanceJob } from '../../jobs/pglite-maintenance.job.ts';
import { pruneJobRunsJob } from '../../jobs/prune-job-runs.job.ts';
import { scheduleJobs } from '../../jobs/scheduler.ts';
import { uptimeRollupJob } from '../../jobs/uptime-rollup.job.ts';
import { pruneWebhookMessagesJob } from '../webhooks/prune-messages.job.ts';
import type { StartupTask } from '../startup.ts';

/**
 * At start: the offline sweep (every 30 s), the pruning of old webhook ids and job claims, the
 * uptime rollup and, on the embedded database only (PostgreSQL has autovacuum: a warning when it is
 * off), its vacuum and analyze; the returned function stops them.
 */
export const monitoringJobsStartup: StartupTask = async (deps) => {
  const warning = await autovacuumOffWarning(deps.database);
  if (warning) deps.log.warn(warning);
  return scheduleJobs(deps, [offlineSweepJob, pruneWebhookMessagesJob, pruneJobRunsJob, uptimeRollupJob, ...(deps.database.kind === 'pglite' ? [pgliteMaintenanceJob] : [])]);
};

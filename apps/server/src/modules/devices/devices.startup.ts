import { offlineSweepJob } from '../../jobs/offline-sweep.ts';
import { scheduleJobs } from '../../jobs/scheduler.ts';
import { pruneWebhookMessagesJob } from '../webhooks/prune-messages.job.ts';
import type { StartupTask } from '../startup.ts';

/** At start: the offline sweep (every 30 s) and the pruning of old webhook ids; the returned function stops them. */
export const monitoringJobsStartup: StartupTask = async (deps) => scheduleJobs(deps, [offlineSweepJob, pruneWebhookMessagesJob]);

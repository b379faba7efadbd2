import type { AppDeps } from '../deps.ts';
import { licenseScanJob } from './license-scan.job.ts';
import { maintenanceJob } from './maintenance.job.ts';
import { notificationAnnounceJob } from './notification-announce.job.ts';
import { offlineAlertsJob } from './offline-alerts.job.ts';
import { offlineSweepJob } from './offline-sweep.job.ts';
import { periodPartitionsJob } from './period-partitions.job.ts';
import { pgliteMaintenanceJob } from './pglite-maintenance.job.ts';
import { pruneJobRunsJob } from './prune-job-runs.job.ts';
import { pruneWebhookMessagesJob } from './prune-webhook-messages.job.ts';
import type { Job } from './scheduler.ts';
import { uptimeRollupJob } from './uptime-rollup.job.ts';

/**
 * Every periodic job of the server, with its tick (each tick runs in one process: scheduler.ts).
 * periodic-jobs.startup.ts schedules them at start; tests run their ticks with runTickOnce.
 *
 * | job                      | every  | what                                                              |
 * | ------------------------ | ------ | ----------------------------------------------------------------- |
 * | offline-sweep            | 30 s   | devices past their heartbeat timeout go offline                   |
 * | webhook-messages-prune   | 1 h    | accepted webhook ids older than a day                             |
 * | prune-job-runs           | 1 h    | tick claims older than a day                                      |
 * | uptime-rollup            | 5 min  | uptime rollup and kept 30-day window of every tenant              |
 * | pglite-maintenance       | 1 min  | vacuum and analyze of the embedded database (PGlite only)         |
 * | offline-alerts           | 5 s    | Device Offline alerts open and resolve (also after status events) |
 * | license-scan             | 1 h    | License Renewal Pending alerts                                    |
 * | notification-announce    | 2 s    | alert announcements stored as deliveries, then sent               |
 * | maintenance-windows      | 5 s    | devices enter and leave maintenance as their windows say          |
 * | period-partitions        | 1 h    | the status history's monthly partitions, two months ahead         |
 */
export const PERIODIC_JOBS: readonly Job[] = [
  offlineSweepJob,
  pruneWebhookMessagesJob,
  pruneJobRunsJob,
  uptimeRollupJob,
  pgliteMaintenanceJob,
  offlineAlertsJob,
  licenseScanJob,
  notificationAnnounceJob,
  maintenanceJob,
  periodPartitionsJob,
];

/** Jobs that only the embedded database needs (PostgreSQL has autovacuum). */
const PGLITE_ONLY: readonly Job[] = [pgliteMaintenanceJob];

/** The jobs this server schedules on its database. */
export const jobsFor = (deps: Pick<AppDeps, 'database'>): Job[] =>
  PERIODIC_JOBS.filter((job) => deps.database.kind === 'pglite' || !PGLITE_ONLY.includes(job));

import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './deps.ts';
import { superAdminStartup } from './modules/auth/index.ts';
import { offlineAlertsTriggerStartup } from './jobs/offline-alerts-trigger.startup.ts';
import { periodicJobsStartup } from './jobs/periodic-jobs.startup.ts';
import { demoStartup } from './demo/demo.startup.ts';

/**
 * Work done once at start after migrations (superAdmin from the environment,
 * demo seed, periodic jobs, simulator). A task may return a stop function,
 * called at graceful shutdown in reverse order.
 */
export type StartupTask = (deps: AppDeps, app: FastifyInstance) => Promise<(() => Promise<void> | void) | void>;

export const startups: StartupTask[] = [superAdminStartup, periodicJobsStartup, offlineAlertsTriggerStartup, demoStartup];

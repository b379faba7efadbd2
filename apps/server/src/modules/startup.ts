import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { superAdminStartup } from './auth/auth.startup.ts';
import { monitoringJobsStartup } from './devices/devices.startup.ts';
import { operationsJobsStartup } from './alerts/alerts.startup.ts';
import { demoStartup } from './stats/demo.startup.ts';

/**
 * Work done once at start after migrations (superAdmin from the environment,
 * demo seed, periodic jobs, simulator). A task may return a stop function,
 * called at graceful shutdown in reverse order.
 */
export type StartupTask = (deps: AppDeps, app: FastifyInstance) => Promise<(() => Promise<void> | void) | void>;

export const startups: StartupTask[] = [superAdminStartup, monitoringJobsStartup, operationsJobsStartup, demoStartup];

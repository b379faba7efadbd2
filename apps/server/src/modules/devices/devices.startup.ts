import type { StartupTask } from '../startup.ts';

/** At start: schedules the offline sweep (placeholder until the module lands). */
export const monitoringJobsStartup: StartupTask = async () => {};

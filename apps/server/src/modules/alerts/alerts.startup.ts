import type { StartupTask } from '../startup.ts';

/** At start: schedules the alert rules and the daily license scan (placeholder until the module lands). */
export const operationsJobsStartup: StartupTask = async () => {};

import type { StartupTask } from '../startup.ts';

/** At start: seeds the demo on an empty database and starts the simulator (placeholder until the module lands). */
export const demoStartup: StartupTask = async () => {};

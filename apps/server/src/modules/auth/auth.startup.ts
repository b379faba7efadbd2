import type { StartupTask } from '../startup.ts';

/** At start: creates or updates the superAdmin from SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD (placeholder until the module lands). */
export const superAdminStartup: StartupTask = async () => {};

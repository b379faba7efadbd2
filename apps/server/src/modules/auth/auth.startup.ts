import type { StartupTask } from '../../startup.ts';
import { ensureSuperAdmin, isCommonPassword } from './superadmin.ts';

/**
 * At start: creates the superAdmin from SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD, or sets
 * its password again (so a forgotten password is fixed by a restart). A bad value is
 * logged and skipped rather than stopping the whole product.
 */
export const superAdminStartup: StartupTask = async (deps) => {
  const wanted = deps.config.superAdmin;
  if (!wanted) return;
  try {
    const outcome = await ensureSuperAdmin(deps.database, wanted, deps.clock.now());
    deps.log.info({ outcome }, `superAdmin ${wanted.email}: ${outcome}`);
    if (isCommonPassword(wanted.password)) deps.log.warn('SUPERADMIN_PASSWORD is a very common password: choose a better one');
  } catch (err) {
    deps.log.error(`superAdmin from SUPERADMIN_EMAIL not applied: ${(err as Error).message}`);
  }
};

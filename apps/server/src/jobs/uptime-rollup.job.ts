import { rollUpAllTenants } from '../modules/stats/index.ts';
import type { Job } from './scheduler.ts';

/** Every 5 minutes; each tick runs in one process (runTickOnce). */
export const uptimeRollupJob: Job = {
  name: 'uptime-rollup',
  everyMs: 5 * 60_000,
  run: async (deps) => {
    for (const run of await rollUpAllTenants(deps.database, deps.clock.now())) {
      if (run.backdatedPortals > 0) deps.log.info(run, 'uptime rollup: recomputed back-dated history');
    }
  },
};

import { addPeriodPartitions } from '../db/period-partitions.ts';
import type { Job } from './scheduler.ts';

/**
 * The status history's monthly partitions ahead of time (db/period-partitions.ts), on PGlite and
 * PostgreSQL alike. Hourly: a tick that finds them there reads the catalog and does nothing else.
 */
export const periodPartitionsJob: Job = {
  name: 'period-partitions',
  everyMs: 3_600_000,
  run: async (deps) => {
    const made = await addPeriodPartitions(deps.database, deps.clock.now());
    if (made > 0) deps.log.info({ made }, 'status history partitions created');
  },
};

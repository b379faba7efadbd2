import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client.ts';
import { allTenants, inScope } from '../db/scope.ts';
import type { AppDeps } from '../deps.ts';
import { rollUpTenant } from '../modules/stats/rollup-build.ts';
import type { Job } from './scheduler.ts';

/**
 * Keeps the uptime rollup (stats/rollup-build.ts) complete up to the last UTC midnight, so
 * the Pulse reliability calls read day rows instead of every status period. One transaction
 * per tenant (a tenant's rows and its rolled_until change together, readers see either the
 * old or the new rollup). Each 5-minute tick runs in one process (runTickOnce).
 */
export async function rollUpAllTenants(deps: AppDeps, now: Date): Promise<void> {
  const tenants = await inScope(deps.database.db, allTenants, (tx) => queryRows<{ id: number }>(tx, sql`select id from tenants order by id`));
  for (const { id } of tenants) {
    const run = await inScope(deps.database.db, allTenants, (tx) => rollUpTenant(tx, Number(id), now));
    if (run.backdatedPortals > 0) deps.log.info({ tenantId: id, ...run }, 'uptime rollup: recomputed back-dated history');
  }
}

export const uptimeRollupJob: Job = {
  name: 'uptime-rollup',
  everyMs: 5 * 60_000,
  run: (deps) => rollUpAllTenants(deps, deps.clock.now()),
};

import type { Database } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import { publishOn } from '../../events/bus.ts';
import { TOPICS, type RollupRanEvent } from '../../events/topics.ts';
import { keepWindow } from './kept-window-build.repository.ts';
import { rollUpTenant, tenantIds, type RollupRun } from './rollup-build.repository.ts';

/**
 * Brings every tenant's uptime rollup (rollup-build.repository.ts) up to `now`, so the Pulse
 * reliability calls read day/hour rows instead of every status period, then its kept 30-day
 * window (kept-window-build.repository.ts) from it, so the portal scores of the window ending now read
 * one row per portal. Per tenant, one transaction for the rollup (its rows and its rolled_until
 * change together: readers see the old or the new rollup), then one for the kept window (readers
 * in between read the previous kept generation, exact on its own: kept-window-build.repository.ts): two
 * shorter holds of PGlite's one session instead of one, during which every webhook waits. All
 * tenants get the same `now`, so their kept windows end at the same instant and the superAdmin's
 * list reads them together. Also usable outside the server, e.g. by the benchmark right after
 * seeding history.
 */
export async function rollUpAllTenants(database: Database, now: Date): Promise<(RollupRun & { tenantId: number })[]> {
  const tenants = await inScope(database.db, allTenants, (tx) => tenantIds(tx));
  const runs = [];
  for (const { id } of tenants) {
    const run = await inScope(database.db, allTenants, async (tx) => {
      const ran = await rollUpTenant(tx, Number(id), now);
      await publishOn(database, TOPICS.rollupRan, [{ tenantId: Number(id) } satisfies RollupRanEvent], tx);
      return ran;
    });
    // Its own transaction: on PGlite every transaction holds the one session, and webhooks wait behind it.
    await inScope(database.db, allTenants, (tx) => keepWindow(tx, Number(id), now, run.periodIdMark));
    runs.push({ tenantId: Number(id), ...run });
  }
  return runs;
}

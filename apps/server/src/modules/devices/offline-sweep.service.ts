import { DEVICE_STATUS } from '@vigil/contracts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { lockOverdue, markOffline, SWEEP_BATCH } from './offline-sweep.repository.ts';
import { publishStatusEvents, statusEvents, type DeviceStatusChange } from './status-events.ts';

/** Runs the sweep at `now`; returns how many devices went offline. */
export async function sweepOfflineDevices(deps: AppDeps, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const swept = await inScope(deps.database.db, allTenants, async (tx) => {
      const rows = await lockOverdue(tx, now);
      if (rows.length === 0) return 0;
      await markOffline(tx, rows, now);
      const byPortal = new Map<string, { tenantId: number; portalId: number; changes: DeviceStatusChange[] }>();
      for (const r of rows) {
        const key = `${r.tenant_id}:${r.portal_id}`;
        const group = byPortal.get(key) ?? { tenantId: Number(r.tenant_id), portalId: Number(r.portal_id), changes: [] };
        group.changes.push({ id: Number(r.id), status: DEVICE_STATUS.offline, at: new Date(r.off_at).toISOString() });
        byPortal.set(key, group);
      }
      // Every portal's events in one statement (a sweep after an outage can touch every portal).
      await publishStatusEvents(
        deps,
        tx,
        [...byPortal.values()].flatMap((g) => statusEvents(deps, g, g.changes)),
      );
      return rows.length;
    });
    total += swept;
    if (swept < SWEEP_BATCH) return total;
  }
}

import type { Executor } from '../../db/client.ts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { publishStatusEvents, statusEvents, type DeviceStatusChange } from '../devices/index.ts';
import { applyTransitions, lockTransitions } from './reconcile.repository.ts';

export interface ReconcileResult {
  entered: number;
  left: number;
}

/**
 * Moves the devices of the tenant (every tenant when `tenantId` is undefined) into and out of maintenance
 * as the windows say at `now` (reconcile.repository.ts), in the caller's transaction. Each move publishes
 * `devices.status` with the device's reported status: the live pages recount, and the offline-alert rule
 * runs soon (a device still offline when its window ends is a new offline device then).
 */
export async function reconcileMaintenance(deps: AppDeps, tx: Executor, opts: { tenantId?: number; now: Date }): Promise<ReconcileResult> {
  const rows = await lockTransitions(tx, opts);
  if (rows.length === 0) return { entered: 0, left: 0 };
  const applied = await applyTransitions(tx, rows, opts.now);
  const byPortal = new Map<string, { tenantId: number; portalId: number; changes: DeviceStatusChange[] }>();
  for (const r of applied) {
    const key = `${r.tenant_id}:${r.portal_id}`;
    const group = byPortal.get(key) ?? { tenantId: Number(r.tenant_id), portalId: Number(r.portal_id), changes: [] };
    group.changes.push({ id: Number(r.id), status: Number(r.status), at: new Date(r.at).toISOString() });
    byPortal.set(key, group);
  }
  await publishStatusEvents(
    deps,
    tx,
    [...byPortal.values()].flatMap((g) => statusEvents(deps, g, g.changes)),
  );
  const left = applied.filter((r) => r.leaving).length;
  return { entered: applied.length - left, left };
}

/** The job's tick: every tenant, one transaction. */
export function reconcileAllTenants(deps: AppDeps, now: Date): Promise<ReconcileResult> {
  return inScope(deps.database.db, allTenants, (tx) => reconcileMaintenance(deps, tx, { now }));
}

import {
  MAINT_MSG,
  MAINTENANCE_RECURRENCES,
  maintenanceSpanProblem,
  type CreateMaintenanceBody,
  type MaintenanceWindow,
  type UpdateMaintenanceBody,
} from '@vigil/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import { isoOf, isoOrNull } from '../../db/sql-list.ts';
import type { Scope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import * as repo from './maintenance.repository.ts';
import { reconcileMaintenance } from './reconcile.service.ts';

/**
 * Maintenance windows (docs/maintenance.md): a tenant's planned time for a portal's devices. Every
 * write reconciles the tenant's devices in the same transaction, so a window covering now is in force in
 * the answer's aftermath and a deleted one has ended; the job (jobs/maintenance.job.ts) does the rest.
 */

export function present(row: repo.WindowRow): MaintenanceWindow {
  return {
    id: Number(row.id),
    customerId: Number(row.portal_id),
    customerName: row.customer_name,
    deviceIds: (row.device_ids ?? []).map(Number),
    startsAt: isoOf(row.starts_at),
    endsAt: isoOf(row.ends_at),
    recurrence: MAINTENANCE_RECURRENCES[Number(row.recurrence)] ?? 'none',
    reason: row.reason,
    createdByName: row.created_by_name,
    createdAt: isoOf(row.created_at),
    inForce: row.in_force === true,
    nextStartsAt: isoOrNull(row.next_starts_at),
    nextEndsAt: isoOrNull(row.next_ends_at),
  };
}

export async function listWindows(
  deps: AppDeps,
  tx: Executor,
  scope: Scope,
  query: Parameters<typeof repo.listWindows>[2],
): Promise<{ list: MaintenanceWindow[]; count: number }> {
  const { rows, count } = await repo.listWindows(tx, scope, query, deps.clock.now());
  return { list: rows.map(present), count };
}

export async function getWindow(deps: AppDeps, tx: Executor, scope: Scope, id: number): Promise<MaintenanceWindow> {
  const row = await repo.findWindow(tx, scope, id, deps.clock.now());
  if (!row) throw notFound();
  return present(row);
}

/** The rules a window's final values obey (a create's body is checked by the contract already). */
function checkSpan(v: repo.WindowValues, now: Date): void {
  const recurrence = MAINTENANCE_RECURRENCES[v.recurrence];
  const problem = maintenanceSpanProblem(v.startsAt, v.endsAt, recurrence);
  if (problem) throw badRequest(problem);
  // History is never rewritten: a one-off window that has ended would change nothing.
  if (v.recurrence === 0 && Date.parse(v.endsAt) <= now.getTime()) throw badRequest(MAINT_MSG.ended);
}

/** Every listed device is a current device of the portal (another tenant's ids are not found either). */
async function checkDevices(tx: Executor, tenantId: number, portalId: number, ids: number[]): Promise<void> {
  if ((await repo.countPortalDevices(tx, tenantId, portalId, ids)) !== ids.length) throw badRequest(MAINT_MSG.unknownDevice);
}

export async function createWindow(
  deps: AppDeps,
  tx: Tx,
  user: { userId: number; userName: string; tenantId: number },
  body: CreateMaintenanceBody,
): Promise<number> {
  const now = deps.clock.now();
  if (!(await repo.portalExists(tx, user.tenantId, body.customerId))) throw notFound();
  const values: repo.WindowValues = {
    deviceIds: body.deviceIds,
    startsAt: new Date(body.startsAt).toISOString(),
    endsAt: new Date(body.endsAt).toISOString(),
    recurrence: MAINTENANCE_RECURRENCES.indexOf(body.recurrence),
    reason: body.reason,
  };
  checkSpan(values, now);
  await checkDevices(tx, user.tenantId, body.customerId, values.deviceIds);
  const id = await repo.insertWindow(tx, user.tenantId, body.customerId, values, user, now);
  await reconcileMaintenance(deps, tx, { tenantId: user.tenantId, now });
  return id;
}

export async function updateWindow(deps: AppDeps, tx: Tx, scope: Scope, id: number, body: UpdateMaintenanceBody): Promise<void> {
  const now = deps.clock.now();
  const row = await repo.findWindow(tx, scope, id, now, true);
  if (!row) throw notFound();
  const values: repo.WindowValues = {
    deviceIds: body.deviceIds ?? row.device_ids.map(Number),
    startsAt: body.startsAt ? new Date(body.startsAt).toISOString() : isoOf(row.starts_at),
    endsAt: body.endsAt ? new Date(body.endsAt).toISOString() : isoOf(row.ends_at),
    recurrence: body.recurrence ? MAINTENANCE_RECURRENCES.indexOf(body.recurrence) : Number(row.recurrence),
    reason: body.reason ?? row.reason,
  };
  checkSpan(values, now);
  if (body.deviceIds) await checkDevices(tx, Number(row.tenant_id), Number(row.portal_id), values.deviceIds);
  await repo.updateWindow(tx, Number(row.tenant_id), id, values, now);
  await reconcileMaintenance(deps, tx, { tenantId: Number(row.tenant_id), now });
}

export async function deleteWindow(deps: AppDeps, tx: Tx, scope: Scope, id: number): Promise<void> {
  const now = deps.clock.now();
  const row = await repo.findWindow(tx, scope, id, now, true);
  if (!row) throw notFound();
  await repo.deleteWindow(tx, Number(row.tenant_id), id);
  await reconcileMaintenance(deps, tx, { tenantId: Number(row.tenant_id), now });
}

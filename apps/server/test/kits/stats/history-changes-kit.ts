import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../harness.ts';
import type { TestPortal } from '../../factories.ts';
import { queryRows } from '../../../src/db/client.ts';
import { deviceStatusPeriods } from '../../../src/db/schema/index.ts';
import { MAINTENANCE } from './history-test-kit.ts';

/**
 * Changes to a status history as the app's writers make them (reports, the offline sweep, maintenance,
 * removal), dated at any instant and committed whenever the caller runs them: for the reliability tests.
 */
export function historyChanges(app: () => TestApp) {
  /** The open period (observed, or maintenance) of a live device of the portal begun before `before`. */
  async function openPeriod(portal: TestPortal, before: Date, maintenance: boolean) {
    const [open] = await queryRows<{ id: number; device_id: number; status: number; reported: number }>(
      app().database.db,
      sql`select p.id, p.device_id, p.status, d.status as reported from device_status_periods p join devices d on d.id = p.device_id
           where p.tenant_id = ${portal.tenantId} and p.portal_id = ${portal.id} and p.ended_at is null and d.removed_at is null
             and p.started_at < ${before.toISOString()}::timestamptz and (p.status = ${MAINTENANCE}) = ${maintenance}
           order by p.id limit 1`,
    );
    expect(open).toBeDefined();
    return open;
  }

  /** Closes period `id` at `at` and opens the device's next one (status `status`) then, as every writer does. */
  async function nextPeriod(portal: TestPortal, open: { id: number; device_id: number }, status: number, at: Date) {
    await app().database.db.execute(
      sql`update device_status_periods set ended_at = ${at.toISOString()}::timestamptz where tenant_id = ${portal.tenantId} and id = ${open.id}`,
    );
    await app()
      .database.db.insert(deviceStatusPeriods)
      .values({ tenantId: portal.tenantId, portalId: portal.id, deviceId: open.device_id, status, startedAt: at });
  }

  /** An observed open period of the portal begun before `before`, closed at `at`, and the next one opened at `at` (as a report or the offline sweep does). */
  async function flipAt(portal: TestPortal, at: Date, before: Date) {
    const open = await openPeriod(portal, before, false);
    await nextPeriod(portal, open, 1 - open.status, at);
    await app().database.db.execute(
      sql`update devices set status = ${1 - open.status}, status_since = ${at.toISOString()}::timestamptz where tenant_id = ${portal.tenantId} and id = ${open.device_id}`,
    );
  }

  /** A device entering maintenance at `at` (its observed open period closed then, a status-2 one opened), as the maintenance job does. */
  async function enterMaintenanceAt(portal: TestPortal, at: Date, before: Date) {
    const open = await openPeriod(portal, before, false);
    await nextPeriod(portal, open, MAINTENANCE, at);
    await app().database.db.execute(
      sql`update devices set maintenance_since = ${at.toISOString()}::timestamptz where tenant_id = ${portal.tenantId} and id = ${open.device_id}`,
    );
  }

  /** A device leaving maintenance at `at`: its status-2 period closed, one of its reported status opened. */
  async function leaveMaintenanceAt(portal: TestPortal, at: Date, before: Date) {
    const open = await openPeriod(portal, before, true);
    await nextPeriod(portal, open, open.reported, at);
    await app().database.db.execute(
      sql`update devices set maintenance_since = null, status_since = ${at.toISOString()}::timestamptz where tenant_id = ${portal.tenantId} and id = ${open.device_id}`,
    );
  }

  /** A device removed at `at` (as removeDevice does: its open period closed then), committed whenever the caller runs this. */
  async function removeAt(portal: TestPortal, at: Date) {
    const [open] = await queryRows<{ id: number; device_id: number }>(
      app().database.db,
      sql`select p.id, p.device_id from device_status_periods p join devices d on d.id = p.device_id
           where p.tenant_id = ${portal.tenantId} and p.portal_id = ${portal.id} and p.ended_at is null and d.removed_at is null
             and p.started_at < ${at.toISOString()}::timestamptz
           order by p.id desc limit 1`,
    );
    expect(open).toBeDefined();
    await app().database.db.execute(
      sql`update devices set removed_at = ${at.toISOString()}::timestamptz where tenant_id = ${portal.tenantId} and id = ${open.device_id}`,
    );
    await app().database.db.execute(
      sql`update device_status_periods set ended_at = ${at.toISOString()}::timestamptz where tenant_id = ${portal.tenantId} and id = ${open.id}`,
    );
  }

  return { openPeriod, nextPeriod, flipAt, enterMaintenanceAt, leaveMaintenanceAt, removeAt };
}

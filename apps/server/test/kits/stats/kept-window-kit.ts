import { sql, type SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import type { TestPortal } from '../../factories.ts';
import type { TestApp } from '../../harness.ts';

/** Helpers of the kept-window tests (stats/kept-window*.test.ts): status changes as the app writes them, and statement counts. */
export function keptWindowKit(app: () => TestApp) {
  /** As the app writes a status change: close the open period at `when`, open the next one then. */
  async function flip(portal: TestPortal, deviceId: number, status: number, when: Date) {
    const db = app().database.db;
    await db.execute(sql`update device_status_periods set ended_at = ${when.toISOString()}::timestamptz
                          where tenant_id = ${portal.tenantId} and device_id = ${deviceId} and ended_at is null`);
    await db.execute(sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
                          values (${portal.tenantId}, ${deviceId}, ${portal.id}, ${status}, ${when.toISOString()}::timestamptz)`);
    await db.execute(sql`update devices set status = ${status}, status_since = ${when.toISOString()}::timestamptz
                          where tenant_id = ${portal.tenantId} and id = ${deviceId}`);
  }

  /** A device of the portal with an open period begun before `before`. */
  async function openDeviceOf(portal: TestPortal, before: Date): Promise<number> {
    const [row] = await queryRows<{ device_id: number }>(
      app().database.db,
      sql`select p.device_id from device_status_periods p join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id
           where p.tenant_id = ${portal.tenantId} and p.portal_id = ${portal.id} and p.ended_at is null and d.removed_at is null
             and p.started_at < ${before.toISOString()}::timestamptz
           order by p.device_id limit 1`,
    );
    expect(row).toBeDefined();
    return Number(row.device_id);
  }

  /** The tenant's live portal ids in the Portals list's default order. */
  async function tenantPortalsByName(tenantId: number): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(
      app().database.db,
      sql`select id from portals where tenant_id = ${tenantId} and deleted_at is null order by lower(name), id`,
    );
    return rows.map((r) => Number(r.id));
  }

  /** The app's database, counting the statements run through it. */
  function countedExecutor() {
    const db = app().database.db;
    const counter = { statements: 0, executor: db };
    counter.executor = new Proxy(db, {
      get: (target, prop): unknown =>
        prop === 'execute' ? (query: SQL) => (counter.statements++, target.execute(query)) : Reflect.get(target, prop, target),
    });
    return counter;
  }

  return { countedExecutor, flip, openDeviceOf, tenantPortalsByName };
}

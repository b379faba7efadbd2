import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import type { TestUser } from '../../factories.ts';
import type { TestApp } from '../../harness.ts';

/**
 * Helpers shared by the operations API tests (cases, comments, alerts, licenses).
 * Device status is written directly, as the webhook ingestion would leave it.
 */
/**
 * Sets devices' status as a writer of the app would: status, status_since and last check-in, and the
 * open period closed and a new one opened (a device's open period has its status: docs/monitoring.md).
 */
export async function setDeviceStatus(t: TestApp, ids: number[], status: 0 | 1): Promise<void> {
  if (ids.length === 0) return;
  const now = t.clock.now().toISOString();
  await t.database.db.execute(sql`with changed as (
      update devices set status = ${status}, status_since = ${now}::timestamptz,
             last_online = case when ${status} = 1 then ${now}::timestamptz else last_online end
       where id in (${sql.join(
         ids.map((id) => sql`${id}`),
         sql`, `,
       )})
      returning tenant_id, id, portal_id
    ), closed as (
      update device_status_periods p set ended_at = ${now}::timestamptz
        from changed c where p.tenant_id = c.tenant_id and p.device_id = c.id and p.ended_at is null
    )
    insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
    select tenant_id, id, portal_id, ${status}, ${now}::timestamptz from changed`);
}

/** Removes devices as `device.removed` does: removed_at set and the open period closed then. */
export async function removeDevices(t: TestApp, ids: number[]): Promise<void> {
  const now = t.clock.now().toISOString();
  await t.database.db.execute(sql`with removed as (
      update devices set removed_at = ${now}::timestamptz where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
      returning tenant_id, id
    )
    update device_status_periods p set ended_at = ${now}::timestamptz
      from removed r where p.tenant_id = r.tenant_id and p.device_id = r.id and p.ended_at is null`);
}

export async function openCaseOf(t: TestApp, deviceId: number): Promise<number | null> {
  const [row] = await queryRows<{ open_case_id: number | null }>(
    t.database.db,
    sql`select open_case_id from devices where id = ${deviceId}`,
  );
  return row?.open_case_id ?? null;
}

/** An error answer with its status and message. */
/** `msg` exact, or `{ endsWith }` for texts outside MSG the error handler prefixes with the field (`body.caseType: ...`). */
export function expectError(res: { status: number; body: unknown }, status: number, msg?: string | { endsWith: string }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const error = (res.body as { error?: { msg: string } }).error;
  expect(error).toBeDefined();
  if (typeof msg === 'string') expect(error!.msg).toBe(msg);
  else if (msg) expect(error!.msg.endsWith(msg.endsWith), error!.msg).toBe(true);
}

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** Access tokens last 15 minutes: after moving the fake clock by days, sign fresh ones for the same users. */
export async function renewTokens(t: TestApp, users: TestUser[]): Promise<void> {
  for (const u of users)
    u.token = await t.deps.accessTokens.sign({
      userId: u.id,
      userName: u.name,
      tenantId: u.tenantId,
      tenantName: u.tenantName,
      roles: u.roles,
    });
}

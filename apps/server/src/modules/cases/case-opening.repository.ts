import { MSG } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client.ts';
import { caseDevices, cases } from '../../db/schema/index.ts';
import { at } from '../../db/sql-list.ts';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from '../../db/offline-periods.ts';
import { OFFLINE } from '../../db/codes.ts';

/** Thrown inside the transaction so the empty case row is rolled back. */
class NothingToCapture extends Error {}

export interface CaseOpening {
  tenantId: number;
  portalId: number;
  createdBy: number;
  now: Date;
  /** Restrict the capture to the devices of this alert (case from an alert). */
  alertId?: number;
}

export type CaseOpeningResult = { opened: true; caseId: number; deviceCount: number } | { opened: false; msg: string };

/**
 * Opens a case holding the portal's offline devices (status 0, not removed) that
 * are not already in an open case. The capture is one conditional UPDATE
 * (`open_case_id is null` re-checked on each row under its row lock), so two
 * simultaneous openings can never put a device in two open cases: the later one
 * sees the rows already taken and skips them.
 */
export async function openCase(run: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>, o: CaseOpening): Promise<CaseOpeningResult> {
  try {
    return await run(async (tx) => {
      const [created] = await tx
        .insert(cases)
        .values({
          tenantId: o.tenantId,
          portalId: o.portalId,
          caseType: 0,
          alertId: o.alertId ?? null,
          createdBy: o.createdBy,
          createdAt: o.now,
          updatedAt: o.now,
        })
        .returning({ id: cases.id });
      const caseId = created.id;
      const fromAlert =
        o.alertId === undefined
          ? sql``
          : sql`and d.id in (select ad.device_id from alert_devices ad where ad.tenant_id = ${o.tenantId} and ad.alert_id = ${o.alertId})`;
      const captured = await queryRows<{ id: number }>(
        tx,
        sql`update devices d set open_case_id = ${caseId}, updated_at = ${at(o.now)}
            where d.tenant_id = ${o.tenantId} and d.portal_id = ${o.portalId} and d.status = ${OFFLINE} and d.removed_at is null
              and d.id in (select op.device_id from ${OFFLINE_PERIODS} where ${IS_OPEN_OFFLINE} and op.tenant_id = ${o.tenantId} and op.portal_id = ${o.portalId})
              and d.open_case_id is null ${fromAlert}
            returning d.id`,
      );
      if (captured.length === 0) throw new NothingToCapture();
      await tx.insert(caseDevices).values(captured.map((d) => ({ tenantId: o.tenantId, caseId, deviceId: d.id })));
      await tx.execute(sql`update cases set offline_count = ${captured.length} where tenant_id = ${o.tenantId} and id = ${caseId}`);
      return { opened: true as const, caseId, deviceCount: captured.length };
    });
  } catch (err) {
    if (err instanceof NothingToCapture) return { opened: false, msg: MSG.noOfflineDevicesForCase };
    throw err;
  }
}

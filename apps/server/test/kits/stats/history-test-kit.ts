import { PERIOD_STATUS } from '@vigil/contracts';
import type { TestApp } from '../../harness.ts';
import type { TestPortal } from '../../factories.ts';
import { devices, deviceStatusPeriods } from '../../../src/db/schema/index.ts';

/** Random status histories for the reliability tests (rollup, kept windows): written directly, as the app's writers leave them. */

export const HOUR = 3_600_000;
/** A maintenance period's status (PERIOD_STATUS.maintenance): not observed time in any figure. */
export const MAINTENANCE = PERIOD_STATUS.maintenance;
export const DAY = 24 * HOUR;

/** mulberry32: a small deterministic PRNG. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Period {
  status: number;
  s: number;
  e: number | null;
}

export function historyKit(app: () => TestApp, rand: () => number) {
  const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo));

  /**
   * A device and its periods. A device whose last period is maintenance (status 2) is in maintenance, as
   * the maintenance job leaves it (docs/uptime-rollup.md): `maintenance_since` is that period's start and
   * its `status` is the one it reported before (the last observed period's, online when there is none).
   */
  async function insertDevice(portal: TestPortal, periods: Period[], removedAt: number | null): Promise<number> {
    const t = app();
    const last = periods.at(-1)!;
    const reported = [...periods].reverse().find((p) => p.status !== MAINTENANCE) ?? { status: 1, s: periods[0].s };
    const [row] = await t.database.db
      .insert(devices)
      .values({
        tenantId: portal.tenantId,
        portalId: portal.id,
        externalId: `ext-${rand()}`,
        name: `Device ${rand()}`,
        deviceType: 0,
        status: reported.status,
        lastReportAt: new Date(last.s),
        statusSince: new Date(reported.s),
        firstSeenAt: new Date(periods[0].s),
        maintenanceSince: last.status === MAINTENANCE && removedAt === null ? new Date(last.s) : null,
        removedAt: removedAt === null ? null : new Date(removedAt),
      })
      .returning({ id: devices.id });
    await t.database.db.insert(deviceStatusPeriods).values(
      periods.map((p) => ({
        tenantId: portal.tenantId,
        portalId: portal.id,
        deviceId: row.id,
        status: p.status,
        startedAt: new Date(p.s),
        endedAt: p.e === null ? null : new Date(p.e),
      })),
    );
    return row.id;
  }

  /**
   * One device with alternating periods from `start` on; the last is open unless the device was removed.
   * Some stretches are maintenance (status 2) between them, minutes to a day long (across hours and
   * midnights), some open at the end; a few entered at the instant their period began leave a
   * zero-length period before them, as the maintenance job does.
   */
  async function randomDevice(portal: TestPortal, start: number, end: number): Promise<number> {
    const periods: Period[] = [];
    let status = rand() < 0.8 ? 1 : 0;
    for (let s = start; s < end;) {
      if (rand() < 0.12) {
        if (rand() < 0.15) periods.push({ status, s, e: s });
        const len = between(5 * 60_000, DAY);
        periods.push({ status: MAINTENANCE, s, e: s + len < end ? s + len : null });
        s += len;
        // Leaving maintenance opens a period of the status the device reports then.
        status = rand() < 0.7 ? 1 : 0;
        continue;
      }
      // Outages of minutes to hours, online stretches of hours to days, some crossing midnights.
      const len = status === 1 ? between(10 * 60_000, 3 * DAY) : between(60_000, 12 * HOUR);
      periods.push({ status, s, e: s + len < end ? s + len : null });
      s += len;
      status = 1 - status;
    }
    const roll = rand();
    // Removed devices: most closed at removal like the app does; some removed inside a period (clipping).
    const removedAt = roll < 0.1 ? periods.at(-1)!.s + between(1, 5 * HOUR) : roll < 0.15 ? between(start, end) : null;
    if (removedAt !== null && roll < 0.1) periods.at(-1)!.e = removedAt;
    return insertDevice(portal, periods, removedAt);
  }

  return { between, insertDevice, randomDevice };
}

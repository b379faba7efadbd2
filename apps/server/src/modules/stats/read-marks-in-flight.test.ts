import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Executor } from '../../db/client.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { uptimeRollupJob } from '../../jobs/uptime-rollup.job.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { usesPostgres } from '../../../test/database.ts';
import { createPortal, createTenant, type TestPortal, type TestTenant } from '../../../test/factories.ts';
import { historyChanges } from '../../../test/kits/stats/history-changes-kit.ts';
import { anchorsSettled, at, HOUR_13, MIN, NOW, SEC } from '../../../test/kits/stats/marks-test-kit.ts';
import { DAY, historyKit, prng } from '../../../test/kits/stats/history-test-kit.ts';
import { createMarks, type Marks } from './read-marks.ts';
import type { HourMark } from './hour-mark.repository.ts';
import { reliabilityOfTenant, reliabilityOfTenantLive } from './reliability.repository.ts';

// Marks of the current hour on PostgreSQL (docs/uptime-rollup.md "Marks of the current hour"): a
// transaction in flight while a mark is read can commit a period with a lower id than the mark's highest
// later. The mark must see it then (its snapshot did not), and no mark may be kept whose id bound a
// transaction in flight could still undercut. Two connections: PGlite runs one transaction at a time.

let t: TestApp;
let tenant: TestTenant;
const portals: TestPortal[] = [];
const { randomDevice } = historyKit(() => t, prng(20261207));
const { flipAt, openPeriod } = historyChanges(() => t);

/** The tenant's score over the 20 minutes before `to` through `marks`, checked against the live one. */
async function expectLive(marks: Marks<HourMark>, to: Date) {
  const win = { tenantId: tenant.id, from: new Date(to.getTime() - 20 * MIN), to };
  expect(await reliabilityOfTenant(t.database.db, win, marks), to.toISOString()).toBe(await reliabilityOfTenantLive(t.database.db, win));
}

const markTimes = (marks: Marks<HourMark>, to: Date) => marks.usable(tenant.id, HOUR_13, to).map((m) => m.at - NOW.getTime());

/**
 * A flip of a device of `portal` dated `when` (its open period closed then, the next opened), written in a
 * transaction left open until `commit` is called: the period's id is drawn now.
 */
async function flipInFlight(portal: TestPortal, when: Date) {
  const open = await openPeriod(portal, when, false);
  let commit!: () => void;
  const held = new Promise<void>((resolve) => (commit = resolve));
  let written!: () => void;
  const wrote = new Promise<void>((resolve) => (written = resolve));
  const done = t.database.db.transaction(async (tx: Executor) => {
    await tx.execute(sql`update device_status_periods set ended_at = ${when.toISOString()}::timestamptz
                          where tenant_id = ${portal.tenantId} and id = ${open.id}`);
    await tx.execute(sql`insert into device_status_periods (tenant_id, device_id, portal_id, status, started_at)
                         values (${portal.tenantId}, ${open.device_id}, ${portal.id}, ${1 - open.status}, ${when.toISOString()}::timestamptz)`);
    written();
    await held;
  });
  await wrote;
  const [{ id }] = await queryRows<{ id: string }>(
    t.database.db,
    sql`select max(id)::text as id from device_status_periods where tenant_id = ${portal.tenantId} and device_id = ${open.device_id}`,
  );
  return {
    /** The id of the highest period of the device a snapshot sees now (the in-flight one is not seen). */
    seenId: id,
    commit: async () => {
      commit();
      await done;
    },
  };
}

async function highestPeriodId(): Promise<string> {
  const [{ id }] = await queryRows<{ id: string }>(
    t.database.db,
    sql`select max(id)::text as id from device_status_periods where tenant_id = ${tenant.id}`,
  );
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t);
  portals.push(await createPortal(t, tenant), await createPortal(t, tenant));
  for (const portal of portals) for (let i = 0; i < 4; i++) await randomDevice(portal, NOW.getTime() - 2 * DAY, NOW.getTime() - 30 * MIN);
  t.clock.set(NOW);
  expect(await runTickOnce(t.deps, uptimeRollupJob)).toBe(true);
}, 60_000);
afterAll(() => t?.close());

describe.runIf(usesPostgres())('marks of the current hour with transactions in flight (PostgreSQL)', () => {
  it('sees a period committed after the mark with an id below the highest the mark saw', async () => {
    const marks = createMarks<HourMark>({ minWalk: 0 });
    await anchorsSettled(t.database.db, marks);
    await expectLive(marks, at(10 * SEC));
    expect(markTimes(marks, at(10 * SEC))).toEqual([7 * SEC]);
    await anchorsSettled(t.database.db, marks);
    // Back-dated well inside the window: a quarter of an hour of one device moves the score by points.
    const inFlight = await flipInFlight(portals[0], at(-15 * MIN));
    await flipAt(portals[1], at(-14 * MIN), at(-14 * MIN));
    expect(BigInt(await highestPeriodId())).toBeGreaterThan(BigInt(inFlight.seenId) + 1n);
    // Read while it is in flight: the mark at +7 s stands, the one at +17 s is read with it unseen.
    await expectLive(marks, at(20 * SEC));
    expect(markTimes(marks, at(20 * SEC))).toEqual([17 * SEC, 7 * SEC]);
    await inFlight.commit();
    // Its period has an id below the +17 s mark's highest: read from that mark all the same, and exact.
    await expectLive(marks, at(30 * SEC));
    expect(markTimes(marks, at(30 * SEC))).toEqual([27 * SEC, 17 * SEC]);
  });

  it('keeps no mark while a transaction older than every anchor is in flight, and marks again once it ends', async () => {
    const marks = createMarks<HourMark>({ minWalk: 0 });
    const inFlight = await flipInFlight(portals[0], at(-13 * MIN));
    await flipAt(portals[1], at(-12 * MIN), at(-12 * MIN));
    // The first read has no anchor; the second's is younger than the transaction in flight: no id bound either time.
    await expectLive(marks, at(40 * SEC));
    await expectLive(marks, at(50 * SEC));
    expect(marks.anchors().length).toBeGreaterThan(0);
    expect(markTimes(marks, at(50 * SEC))).toEqual([]);
    await inFlight.commit();
    await anchorsSettled(t.database.db, marks);
    await expectLive(marks, at(60 * SEC));
    expect(markTimes(marks, at(60 * SEC))).toEqual([57 * SEC]);
    await flipAt(portals[0], at(-11 * MIN), at(-11 * MIN));
    await expectLive(marks, at(70 * SEC));
    expect(markTimes(marks, at(70 * SEC))).toEqual([67 * SEC, 57 * SEC]);
  });
});

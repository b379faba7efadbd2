import { maintenanceEndpoints as mw } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { maintenanceJob } from '../../jobs/maintenance.job.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { createDevices, createPortal, createTenant, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { expectOpenPeriodInvariant } from '../../../test/kits/maintenance/maintenance-test-kit.ts';
import { periodsOf } from '../../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * Recurring windows in the tenant's time zone (docs/maintenance.md "Recurrence and time zones"): each
 * occurrence repeats the window's local wall-clock start and end, across daylight-saving changes.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Runs the maintenance job's tick at `when`. */
async function tick(when: Date): Promise<void> {
  t.clock.set(when);
  expect(await runTickOnce(t.deps, maintenanceJob)).toBe(true);
}

describe('recurring maintenance windows', () => {
  it('repeats a daily window at its local wall-clock time across a DST change (America/New_York)', async () => {
    const tenant = await createTenant(t, { timezone: 'America/New_York' });
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const portal = await createPortal(t, tenant, 'Boston');
    t.clock.set(new Date('2026-10-29T12:00:00.000Z'));
    const [device] = await createDevices(t, portal, [{ since: new Date('2026-10-29T00:00:00.000Z') }]);
    // 12:00-14:00 New York time, daily from 30 October (EDT, UTC-4); DST ends on 1 November (EST, UTC-5).
    const created = await t.call(mw.create, {
      token: admin.token,
      body: { customerId: portal.id, startsAt: '2026-10-30T16:00:00.000Z', endsAt: '2026-10-30T18:00:00.000Z', recurrence: 'daily' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const inMaintenance = async () =>
      (
        await queryRows<{ since: Date | string | null }>(
          t.database.db,
          sql`select maintenance_since as since from devices where id = ${device.id}`,
        )
      )[0].since !== null;

    await tick(new Date('2026-10-30T16:00:04.000Z'));
    expect(await inMaintenance()).toBe(true);
    await tick(new Date('2026-10-30T18:00:04.000Z'));
    expect(await inMaintenance()).toBe(false);
    // 2 November: 16:30 UTC is 11:30 EST (outside), 17:00 UTC is noon EST.
    await tick(new Date('2026-11-02T16:30:00.000Z'));
    expect(await inMaintenance()).toBe(false);
    const get = await t.call(mw.get, { token: admin.token, params: { id: created.body.data.id } });
    expect(get.body.data).toMatchObject({
      inForce: false,
      nextStartsAt: '2026-11-02T17:00:00.000Z',
      nextEndsAt: '2026-11-02T19:00:00.000Z',
    });
    await tick(new Date('2026-11-02T17:00:03.000Z'));
    expect(await inMaintenance()).toBe(true);
    await tick(new Date('2026-11-02T18:59:55.000Z'));
    expect(await inMaintenance()).toBe(true);
    await tick(new Date('2026-11-02T19:00:01.000Z'));
    expect(await inMaintenance()).toBe(false);
    expect((await periodsOf(t, device.id)).filter((p) => p.status === 2)).toEqual([
      { status: 2, from: '2026-10-30T16:00:00.000Z', to: '2026-10-30T18:00:00.000Z' },
      { status: 2, from: '2026-11-02T17:00:00.000Z', to: '2026-11-02T19:00:00.000Z' },
    ]);
    await expectOpenPeriodInvariant(t, tenant.id);
  });
});

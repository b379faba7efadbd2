import { deviceEndpoints, liveEventsEndpoints } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { sweepOfflineDevices } from './offline-sweep.service.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { removed, reported, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from '../../db/offline-periods.ts';

/**
 * The offline devices are read through their open offline periods (db/offline-periods.ts), not through an
 * index on devices.status (a status flip must stay a HOT update). After every kind of write that moves a
 * device's status or removes it (first report, flips, several reports in one message, a late report, the
 * offline sweep, removal, return), the periods' answer, the offline filter of the devices list and the
 * live events all equal the devices' own columns.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let south: TestPortal;
const START = new Date('2026-11-22T06:00:00.000Z');
const MIN = 60_000;
const at = (minutes: number) => new Date(START.getTime() + minutes * MIN);

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(at(0));
  cast = await createCast(t);
  await t.database.exec(`update tenants set heartbeat_timeout = 10 where id = ${cast.tenant.id}`);
  north = await createPortal(t, cast.tenant, 'North');
  south = await createPortal(t, cast.tenant, 'South');
});
afterAll(() => t.close());

const ids = (rows: { id: number }[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);

/** The tenant's offline devices from the devices' own columns (no index needed: the test's own connection). */
const fromColumns = async () =>
  ids(
    await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from devices where tenant_id = ${cast.tenant.id} and status = 0 and removed_at is null`,
    ),
  );

const fromPeriods = async () =>
  ids(
    await queryRows<{ id: number }>(
      t.database.db,
      sql`select op.device_id as id from ${OFFLINE_PERIODS} where ${IS_OPEN_OFFLINE} and op.tenant_id = ${cast.tenant.id}`,
    ),
  );

const idOf = async (portal: TestPortal, externalId: string) =>
  Number(
    (
      await queryRows<{ id: number }>(
        t.database.db,
        sql`select id from devices where portal_id = ${portal.id} and external_id = ${externalId}`,
      )
    )[0].id,
  );

/** Every reader of the offline devices agrees with the columns, and the columns with `expected`. */
async function expectOffline(expected: [TestPortal, string][]): Promise<void> {
  const want = (await Promise.all(expected.map(([p, ext]) => idOf(p, ext)))).sort((a, b) => a - b);
  expect(await fromColumns()).toEqual(want);
  expect(await fromPeriods()).toEqual(want);
  const list = await t.call(deviceEndpoints.list, {
    token: cast.admin.token,
    query: { filter: { status: 0 }, sort: ['createdAt', 'ASC'], range: [0, 100] },
  });
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  expect(list.body.data.list.map((d) => d.id).sort((a, b) => a - b)).toEqual(want);
  expect(list.body.data.count).toBe(want.length);
  const live = await t.call(liveEventsEndpoints.list, { token: cast.admin.token, query: { range: [0, 100] } });
  const perPortal = new Map(live.body.data.list.map((e) => [e.customerId, e.offlineCount]));
  for (const portal of [north, south]) expect(perPortal.get(portal.id) ?? 0).toBe(expected.filter(([p]) => p === portal).length);
}

async function report(portal: TestPortal, devices: { externalId: string; status: 0 | 1; at: Date }[]): Promise<void> {
  expect((await sendWebhook(t, portal, reported(devices))).status).toBe(202);
}

describe('offline devices through their open offline periods', () => {
  it('equal the devices whose columns say offline after every kind of write', async () => {
    // First reports: created online and offline.
    await report(north, [
      { externalId: 'n1', status: 1, at: at(0) },
      { externalId: 'n2', status: 0, at: at(0) },
      { externalId: 'n3', status: 1, at: at(0) },
    ]);
    await report(south, [
      { externalId: 's1', status: 0, at: at(0) },
      { externalId: 's2', status: 1, at: at(0) },
    ]);
    await expectOffline([
      [north, 'n2'],
      [south, 's1'],
    ]);

    // Flips both ways, and a flap inside one message (its last report counts).
    t.clock.set(at(1));
    await report(north, [
      { externalId: 'n1', status: 0, at: at(1) },
      { externalId: 'n2', status: 1, at: at(1) },
    ]);
    await report(south, [
      { externalId: 's2', status: 0, at: at(1) },
      { externalId: 's2', status: 1, at: new Date(at(1).getTime() + 1000) },
    ]);
    await expectOffline([
      [north, 'n1'],
      [south, 's1'],
    ]);

    // A late report changes nothing.
    await report(north, [{ externalId: 'n3', status: 0, at: at(-5) }]);
    await expectOffline([
      [north, 'n1'],
      [south, 's1'],
    ]);

    // The offline sweep: n3 and s2 stop reporting (n2 keeps reporting).
    t.clock.set(at(12));
    await report(north, [{ externalId: 'n2', status: 1, at: at(12) }]);
    expect(await sweepOfflineDevices(t.deps, at(12))).toBe(2);
    await expectOffline([
      [north, 'n1'],
      [north, 'n3'],
      [south, 's1'],
      [south, 's2'],
    ]);

    // Removal of an offline device, then its return (online), and of another (offline).
    t.clock.set(at(13));
    expect((await sendWebhook(t, north, removed('n1'))).status).toBe(202);
    expect((await sendWebhook(t, south, removed('s1'))).status).toBe(202);
    await expectOffline([
      [north, 'n3'],
      [south, 's2'],
    ]);
    t.clock.set(at(14));
    await report(north, [{ externalId: 'n1', status: 1, at: at(14) }]);
    await report(south, [{ externalId: 's1', status: 0, at: at(14) }]);
    await expectOffline([
      [north, 'n3'],
      [south, 's1'],
      [south, 's2'],
    ]);
  });

  it('leaves no index of devices naming status, so a status flip is a HOT update', async () => {
    const named = await queryRows<{ indexrelid: string }>(
      t.database.db,
      sql`select i.indexrelid::regclass::text as indexrelid
            from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attname = 'status'
           where i.indrelid = 'devices'::regclass
             and (a.attnum = any (i.indkey::int2[])
                  or pg_get_expr(i.indexprs, i.indrelid) ~ '\\mstatus\\M'
                  or pg_get_expr(i.indpred, i.indrelid) ~ '\\mstatus\\M')`,
    );
    expect(named).toEqual([]);
  });
});

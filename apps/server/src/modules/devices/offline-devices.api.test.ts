import { deviceEndpoints, liveEventsEndpoints, maintenanceEndpoints } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { sweepOfflineDevices } from './offline-sweep.service.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { removed, reported, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';
import { renewTokens } from '../../../test/kits/cases/operations-test-support.ts';
import { maintenanceJob } from '../../jobs/maintenance.job.ts';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { IS_OPEN_OFFLINE, OFFLINE_PERIODS } from '../../db/offline-periods.ts';

/**
 * The offline devices are read through their open offline periods (db/offline-periods.ts), not through an
 * index on devices.status (a status flip must stay a HOT update). After every kind of write that moves a
 * device's status or removes it (first report, flips, several reports in one message, a late report, the
 * offline sweep, removal, return), the periods' answer, the offline filter of the devices list and the
 * live events all equal the devices' own columns; with devices in maintenance (docs/maintenance.md) the
 * periods and live events leave those out, and every device keeps exactly one open period.
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

/**
 * The open-period invariant (docs/monitoring.md), with maintenance (docs/maintenance.md): a device not
 * removed has exactly one open period, starting at maintenance_since with status 2 while in maintenance,
 * else at status_since with its status; a removed device has none and no maintenance.
 */
async function expectOpenPeriods(): Promise<void> {
  const broken = await queryRows<{ id: number }>(
    t.database.db,
    sql`select d.id from devices d
          left join lateral (select count(*)::int as n, min(p.started_at) as started_at, min(p.status) as status
                               from device_status_periods p
                              where p.tenant_id = d.tenant_id and p.device_id = d.id and p.ended_at is null) o on true
         where d.tenant_id = ${cast.tenant.id}
           and case when d.removed_at is not null then o.n <> 0 or d.maintenance_since is not null
                    else o.n <> 1 or o.started_at <> coalesce(d.maintenance_since, d.status_since)
                         or o.status <> case when d.maintenance_since is null then d.status else 2 end end`,
  );
  expect(broken).toEqual([]);
}

/**
 * Every reader of the offline devices agrees with the columns, and the columns with `expected` (the reported
 * offline devices). Those of `maintained` are in maintenance: the devices list's offline filter still shows
 * them (it is about the reported status), the open offline periods and the live events do not.
 */
async function expectOffline(expected: [TestPortal, string][], maintained: [TestPortal, string][] = []): Promise<void> {
  const want = (await Promise.all(expected.map(([p, ext]) => idOf(p, ext)))).sort((a, b) => a - b);
  const inMaintenance = new Set(await Promise.all(maintained.map(([p, ext]) => idOf(p, ext))));
  const watched = expected.filter(([p, ext]) => !maintained.some(([mp, me]) => mp === p && me === ext));
  expect(await fromColumns()).toEqual(want);
  expect(await fromPeriods()).toEqual(want.filter((id) => !inMaintenance.has(id)));
  const list = await t.call(deviceEndpoints.list, {
    token: cast.admin.token,
    query: { filter: { status: 0 }, sort: ['createdAt', 'ASC'], range: [0, 100] },
  });
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  expect(list.body.data.list.map((d) => d.id).sort((a, b) => a - b)).toEqual(want);
  expect(list.body.data.list.filter((d) => d.inMaintenance).map((d) => d.id)).toEqual(
    list.body.data.list.filter((d) => inMaintenance.has(d.id)).map((d) => d.id),
  );
  expect(list.body.data.count).toBe(want.length);
  const live = await t.call(liveEventsEndpoints.list, { token: cast.admin.token, query: { range: [0, 100] } });
  const perPortal = new Map(live.body.data.list.map((e) => [e.customerId, e.offlineCount]));
  for (const portal of [north, south]) expect(perPortal.get(portal.id) ?? 0).toBe(watched.filter(([p]) => p === portal).length);
  await expectOpenPeriods();
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

  it('equal the devices whose columns say offline, less those in maintenance, after every kind of write', async () => {
    // Continues the history above: north n3 and south s1, s2 are offline; n1 and n2 online.
    const setClock = async (when: Date) => {
      t.clock.set(when);
      await renewTokens(t, [cast.admin]);
    };
    await setClock(at(15));
    const window = await t.call(maintenanceEndpoints.create, {
      token: cast.admin.token,
      body: { customerId: north.id, startsAt: at(15).toISOString(), endsAt: at(60).toISOString() },
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    const maintained: [TestPortal, string][] = [
      [north, 'n1'],
      [north, 'n2'],
      [north, 'n3'],
    ];
    await expectOffline(
      [
        [north, 'n3'],
        [south, 's1'],
        [south, 's2'],
      ],
      maintained,
    );

    // Reports during maintenance (a flip, and a flap inside one message) move the columns only.
    await setClock(at(16));
    await report(north, [
      { externalId: 'n2', status: 0, at: at(16) },
      { externalId: 'n1', status: 0, at: at(16) },
      { externalId: 'n1', status: 1, at: new Date(at(16).getTime() + 1000) },
    ]);
    await expectOffline(
      [
        [north, 'n2'],
        [north, 'n3'],
        [south, 's1'],
        [south, 's2'],
      ],
      maintained,
    );

    // The sweep turns the silent n1 offline, also without a period.
    await setClock(at(27));
    expect(await sweepOfflineDevices(t.deps, at(27))).toBe(1);
    await expectOffline(
      [
        [north, 'n1'],
        [north, 'n2'],
        [north, 'n3'],
        [south, 's1'],
        [south, 's2'],
      ],
      maintained,
    );

    // Removal in maintenance, then a return (outside maintenance until the job's next tick puts it back).
    await setClock(at(28));
    expect((await sendWebhook(t, north, removed('n3'))).status).toBe(202);
    await setClock(at(29));
    await report(north, [{ externalId: 'n3', status: 0, at: at(29) }]);
    await expectOffline(
      [
        [north, 'n1'],
        [north, 'n2'],
        [north, 'n3'],
        [south, 's1'],
        [south, 's2'],
      ],
      maintained.slice(0, 2),
    );
    await setClock(at(30));
    expect(await runTickOnce(t.deps, maintenanceJob)).toBe(true);
    await expectOffline(
      [
        [north, 'n1'],
        [north, 'n2'],
        [north, 'n3'],
        [south, 's1'],
        [south, 's2'],
      ],
      maintained,
    );

    // Deleting the window ends maintenance now: the offline devices are offline periods again.
    await setClock(at(31));
    expect((await t.call(maintenanceEndpoints.remove, { token: cast.admin.token, params: { id: window.body.data.id } })).status).toBe(200);
    await expectOffline([
      [north, 'n1'],
      [north, 'n2'],
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

import { deviceEndpoints, type Device } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { inReadScope } from '../../db/read-scope.ts';
import { tenantScope } from '../../db/scope.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { removed, reported, sendWebhook, type DeviceInput } from '../../../test/kits/webhooks/webhook-test-kit.ts';
import { boundedList, listDevices } from './devices.service.ts';
import { SortBounds } from './sort-bounds.ts';

/**
 * The devices list in the orders no index serves, read through bounds kept from earlier pages
 * (sort-bounds.ts): every page must equal its slice of the order read straight from the table, on a
 * first walk (no bound), on the walks after it (bounds kept), and after changes that leave a kept bound
 * reached by fewer rows than a page needs (a device at the front checking in or changing model,
 * removed, its portal deleted) or by more (devices checking in, a device first seen long ago).
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let south: TestPortal;
let elsewhere: TestPortal;
const START = new Date('2026-11-22T06:00:00.000Z');
const DEVICES = 90;
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000);
type Dir = 'ASC' | 'DESC';

/** Each bounded order's expression, as the list sorts on it. */
const ORDERS = {
  lastOnline: 'd.last_online',
  createdAt: 'd.created_at',
  deviceModel: 'lower(d.device_model)',
  status: 'd.status',
  deviceType: 'd.device_type',
} as const;
type Field = keyof typeof ORDERS;

async function page(offset: number, count: number, field: Field, dir: Dir): Promise<{ list: Device[]; count: number }> {
  const res = await t.call(deviceEndpoints.list, {
    token: cast.admin.token,
    query: { range: [offset, count], sort: [field, dir] } as never,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { data: { list: Device[]; count: number } }).data;
}

/** The list's order straight from the table (never-online devices last in both directions). */
async function order(field: Field, dir: Dir): Promise<number[]> {
  const d = sql.raw(dir === 'ASC' ? 'asc' : 'desc');
  const rows = await queryRows<{ id: number }>(
    t.database.db,
    sql`select d.id from devices d join portals p on p.tenant_id = d.tenant_id and p.id = d.portal_id
         where d.tenant_id = ${cast.tenant.id} and d.removed_at is null and p.deleted_at is null
         order by ${sql.raw(ORDERS[field])} ${d} nulls last, d.id ${d}`,
  );
  return rows.map((r) => Number(r.id));
}

/** Every page (of each size) in both directions of each order, each read twice (the second through a kept bound). */
async function expectEveryPage(sizes = [10]) {
  for (const field of Object.keys(ORDERS) as Field[]) {
    for (const dir of ['DESC', 'ASC'] as const) {
      const ids = await order(field, dir);
      for (const size of sizes) {
        for (let offset = 0; offset < ids.length + size; offset += size) {
          for (const read of ['first', 'again']) {
            const got = await page(offset, size, field, dir);
            expect(got.count).toBe(ids.length);
            expect(
              got.list.map((d) => d.id),
              `${field} ${dir} page at ${offset} of ${size} (${read})`,
            ).toEqual(ids.slice(offset, offset + size));
          }
        }
      }
    }
  }
}

const send = async (portal: TestPortal, body: Parameters<typeof sendWebhook>[2]) => {
  const res = await sendWebhook(t, portal, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
};

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(at(600));
  cast = await createCast(t);
  north = await createPortal(t, cast.tenant, 'North');
  south = await createPortal(t, cast.tenant, 'South');
  elsewhere = await createPortal(t, cast.other, 'Elsewhere');
  // Check-ins that tie (the id decides) and never-online devices (first reported offline), over two portals.
  const devices: DeviceInput[] = Array.from({ length: DEVICES }, (_, i) => ({
    externalId: `dev-${i}`,
    name: `Device ${i}`,
    deviceType: i % 5,
    deviceModel: ['Dome', 'bullet', 'Bullet', 'PTZ 2'][i % 4],
    status: i % 9 === 4 ? 0 : 1,
    at: at(i % 23),
  }));
  for (let i = 0; i < devices.length; i += 30) await send(i % 60 ? south : north, reported(devices.slice(i, i + 30)));
  // Another tenant's device checked in after all of them.
  await send(elsewhere, reported([{ externalId: 'x', name: 'Elsewhere', status: 1, at: at(500) }]));
});
afterAll(() => t.close());

describe('devices sorted on a column no index serves, through kept bounds', () => {
  it('answer every page as the table orders it, with and without a kept bound', async () => {
    const ids = await order('lastOnline', 'DESC');
    expect(ids.length).toBe(DEVICES);
    await expectEveryPage([10, 7]);
  });

  it('stay exact when devices check in, go offline, change model, are first seen, removed or their portal deleted', async () => {
    const [newest] = await order('lastOnline', 'DESC');
    const [oldest] = await order('lastOnline', 'ASC');
    const [firstModel] = await order('deviceModel', 'ASC');
    const externalOf = async (id: number) =>
      (await queryRows<{ external_id: string }>(t.database.db, sql`select external_id from devices where id = ${id}`))[0].external_id;
    const changes: (() => Promise<void>)[] = [
      // The oldest check-in checks in again: it leaves the front of the ascending order (fewer rows within its bounds).
      async () => send(south, reported([{ externalId: await externalOf(oldest), name: 'Renewed', status: 1, at: at(300) }])),
      // Several check in at once, tying at one instant.
      async () =>
        send(south, reported([31, 32, 33].map((i) => ({ externalId: `dev-${i}`, name: `Device ${i}`, status: 1 as const, at: at(301) })))),
      // Offline reports leave lastOnline as it was.
      async () =>
        send(north, reported([0, 1, 2].map((i) => ({ externalId: `dev-${i}`, name: `Device ${i}`, status: 0 as const, at: at(302) })))),
      // The first model of the ascending order becomes the last.
      async () =>
        send(south, reported([{ externalId: await externalOf(firstModel), name: 'Renamed', deviceModel: 'zz', status: 1, at: at(303) }])),
      // First seen, with a check-in long before every other.
      async () => send(north, reported([{ externalId: 'late', name: 'Late', status: 1, at: at(-3600) }])),
      // The newest removed: it leaves the front of the descending order.
      async () => send(south, removed(await externalOf(newest))),
    ];
    for (const change of changes) {
      await expectEveryPage();
      await change();
      await expectEveryPage();
    }
    // A deleted portal's devices leave the list (pages that skip rows check portals then).
    await t.database.db.execute(sql`update portals set deleted_at = now() where id = ${north.id}`);
    try {
      const ids = await order('lastOnline', 'DESC');
      expect(ids.length).toBeLessThan(DEVICES);
      await expectEveryPage();
    } finally {
      await t.database.db.execute(sql`update portals set deleted_at = null where id = ${north.id}`);
    }
    await expectEveryPage();
  });

  it('keeps the bound a full page ends at and drops those a short page says are past the end', async () => {
    const bounds = new SortBounds();
    const scope = tenantScope(cast.tenant.id);
    const read = (offset: number, limit: number) =>
      inReadScope(t.database, scope, (reader) =>
        listDevices(reader, scope, { offset, limit, filter: {}, sort: { field: 'lastOnline', dir: 'DESC' } }, { sortBounds: bounds }),
      );
    const list = boundedList(scope, {}, { field: 'lastOnline', dir: 'DESC' });
    const first = await read(0, 10);
    const last = first.list.at(-1)!;
    const bound = bounds.boundFor(list, 10);
    expect(bound && { at: new Date(bound.key).toISOString(), id: bound.id, rows: bound.rows }).toEqual({
      at: last.lastOnline,
      id: last.id,
      rows: 10,
    });
    expect(bounds.boundFor(list, 11)).toBeUndefined();
    // A page within it is read through it, and answers as without it.
    expect((await read(3, 5)).list).toEqual(first.list.slice(3, 8));
    // Past the end: a bound said to reach that deep (a list that has since shrunk) answers the short
    // page exactly (too few rows within it: every row sorted) and is dropped.
    bounds.keep(list, { ...bound!, rows: first.count + 6 });
    expect(bounds.boundFor(list, first.count + 6)?.rows).toBe(first.count + 6);
    const short = await read(first.count - 4, 10);
    expect(short.list).toHaveLength(4);
    expect(bounds.boundFor(list, first.count + 6)).toBeUndefined();
    expect(bounds.boundFor(list, 10)).toBeDefined();
  });
});

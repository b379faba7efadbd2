import { deviceEndpoints, type Device } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { inScope, tenantScope } from '../../db/scope.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { marksClock } from '../../../test/kits/marks/marks-clock.ts';
import { removed, reported, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';
import { readNameMarks } from './devices.repository.ts';
import { NAME_MARK_EVERY } from './name-marks.ts';

/**
 * Later pages of the devices list in its default order, read from kept name marks (name-marks.ts):
 * every page must equal its slice of the whole list (read in one first page), on the walk that reads
 * the marks, on the walks that use them, and after devices are added, renamed, removed and reported
 * again (each changes the order the marks were read from), for this tenant only.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let south: TestPortal;
let elsewhere: TestPortal;
const START = new Date('2026-11-22T06:00:00.000Z');
/** Moves the clock past the marks' read interval. */
let later: () => void;
const DEVICES = 3 * NAME_MARK_EVERY + 37;

async function page(offset: number, count: number): Promise<{ list: Device[]; count: number }> {
  const res = await t.call(deviceEndpoints.list, { token: cast.admin.token, query: { range: [offset, count] } as never });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { data: { list: Device[]; count: number } }).data;
}

/** Every page of 10 (and a few of other sizes) against the whole list. */
async function expectPagesOfWholeList() {
  const whole = await page(0, 1000);
  expect(whole.list.length).toBe(whole.count);
  const ids = whole.list.map((d) => d.id);
  for (const size of [10, 7, 25]) {
    for (let offset = size; offset < whole.count + size; offset += size) {
      const got = await page(offset, size);
      expect(got.count, `offset ${offset}`).toBe(whole.count);
      expect(
        got.list.map((d) => d.id),
        `page at ${offset} of ${size}`,
      ).toEqual(ids.slice(offset, offset + size));
    }
  }
  return whole;
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(START);
  later = marksClock(t.clock, START);
  cast = await createCast(t);
  north = await createPortal(t, cast.tenant, 'North');
  south = await createPortal(t, cast.tenant, 'South');
  elsewhere = await createPortal(t, cast.other, 'Elsewhere');
  // Names that tie in lower case (the id decides) and differ only by case, over two portals.
  const devices = Array.from({ length: DEVICES }, (_, i) => {
    const status: 0 | 1 = i % 4 ? 1 : 0;
    return {
      externalId: `dev-${i}`,
      name: `${i % 3 ? 'Cam' : 'cam'} ${String(i % 41).padStart(2, '0')}`,
      deviceType: i % 5,
      status,
      at: START,
    };
  });
  for (let i = 0; i < devices.length; i += 100) {
    const res = await sendWebhook(t, i % 200 ? south : north, reported(devices.slice(i, i + 100)));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
  }
  await sendWebhook(t, elsewhere, reported([{ externalId: 'x', name: 'aaa first elsewhere', status: 1, at: START }]));
});
afterAll(() => t.close());

describe('devices list pages read from name marks', () => {
  it('equal their slice of the whole list on the walk that reads the marks and on the next ones', async () => {
    const first = await expectPagesOfWholeList();
    expect(first.count).toBe(DEVICES);
    later();
    await expectPagesOfWholeList();
  });

  it('stay exact when devices are added, renamed, removed and reported again after the marks were read', async () => {
    const changes = [
      // Added: before every other name, and in the middle.
      () => sendWebhook(t, north, reported([{ externalId: 'new-a', name: 'Aardvark', status: 1, at: t.clock.now() }])),
      () => sendWebhook(t, south, reported([{ externalId: 'new-m', name: 'cam 20 b', status: 1, at: t.clock.now() }])),
      // Renamed: from the front to the end.
      () => sendWebhook(t, north, reported([{ externalId: 'new-a', name: 'zebra', status: 1, at: t.clock.now() }])),
      // Removed, then reported again (later than its removal).
      () => sendWebhook(t, north, removed('dev-0')),
      () => sendWebhook(t, north, reported([{ externalId: 'dev-0', name: 'cam 00', status: 1, at: t.clock.now() }])),
      // Another tenant's device changes nothing here.
      () => sendWebhook(t, elsewhere, reported([{ externalId: 'y', name: 'aaa second elsewhere', status: 1, at: t.clock.now() }])),
    ];
    let count = DEVICES;
    for (const change of changes) {
      // Marks read and in use before the change.
      await expectPagesOfWholeList();
      const res = await change();
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      // Right after it: the marks are out of date and the interval has not passed.
      const after = await expectPagesOfWholeList();
      expect(after.count).toBeGreaterThanOrEqual(count - 1);
      count = after.count;
      // Marks read again, then used.
      later();
      await expectPagesOfWholeList();
    }
    expect(count).toBe(DEVICES + 2);
  });

  it('stay exact for a tenant with a deleted portal, which keeps no marks', async () => {
    await expectPagesOfWholeList();
    expect(await readNameMarks(t.database.db, cast.tenant.id)).toBeDefined();
    const before = await page(0, 1000);
    await t.database.db.execute(sql`update portals set deleted_at = now() where id = ${north.id}`);
    try {
      const whole = await expectPagesOfWholeList();
      const northIds = new Set(before.list.filter((d) => d.customerId === north.id).map((d) => d.id));
      expect(northIds.size).toBeGreaterThan(0);
      expect(whole.list.map((d) => d.id)).toEqual(before.list.map((d) => d.id).filter((id) => !northIds.has(id)));
      later();
      await expectPagesOfWholeList();
      expect(await readNameMarks(t.database.db, cast.tenant.id)).toBeUndefined();
      // The other tenant has no deleted portal: its marks are still read.
      expect(await readNameMarks(t.database.db, cast.other.id)).toBeDefined();
    } finally {
      await t.database.db.execute(sql`update portals set deleted_at = null where id = ${north.id}`);
    }
    expect(await readNameMarks(t.database.db, cast.tenant.id)).toBeDefined();
    later();
    await expectPagesOfWholeList();
  });

  it('finds a later page through the name index under row-level security (a bound on name_key, not a filter)', async () => {
    const [mark] = await queryRows<{ name_key: string; id: number }>(
      t.database.db,
      sql`select name_key, id from devices where tenant_id = ${cast.tenant.id} and removed_at is null order by name_key, id offset ${NAME_MARK_EVERY} limit 1`,
    );
    await t.database.exec('analyze devices');
    const plan = await inScope(t.database.db, tenantScope(cast.tenant.id), async (tx) => {
      // Few rows here: the planner would rather read them all; the name index must still take the bound.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      const rows = await queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain select d.id from devices d
             where d.removed_at is null and d.tenant_id = ${cast.tenant.id}
               and (d.name_key, d.id) >= (${mark.name_key}::text, ${mark.id}::int)
             order by d.name_key, d.id limit 10 offset 5`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Cond: .*ROW\(name_key, id\) >= ROW/);
  });
});

import { alertEndpoints, caseEndpoints, type Endpoint } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createPortal, type TestPortal } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { marksClock } from '../../test/kits/marks/marks-clock.ts';
import { IDS_PER_MARK, IdMarkStore, idMarksOf } from './id-marks.ts';

/**
 * Later pages of the cases and alerts lists in their default order, started from id marks kept in
 * memory (id-marks.ts, kept-counts.ts markedPageWithTotal): every page must equal its slice of the
 * whole list, with its count, on the walk that reads the marks, on the walks that use them, and after
 * rows are added or deleted (each changes the marks and bumps the tenant's order version), for this
 * tenant only; a tenant with a deleted portal keeps none.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let south: TestPortal;
let elsewhere: TestPortal;
const START = new Date('2026-11-22T06:00:00.000Z');
/** Moves the clock past the marks' read interval. */
let later: () => void;

type Row = { id: number; customerId: number };
const LISTS: [string, Endpoint][] = [
  ['alerts', alertEndpoints.list],
  ['cases', caseEndpoints.list],
];

async function page(endpoint: Endpoint, token: string, offset: number, count: number): Promise<{ list: Row[]; count: number }> {
  const res = await t.call(endpoint as typeof alertEndpoints.list, { token, query: { range: [offset, count] } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Every later page of 10 (and of 7) of each list against the whole list. */
async function expectPagesOfWholeLists(token = cast.admin.token) {
  const wholes: Record<string, Row[]> = {};
  for (const [name, endpoint] of LISTS) {
    const whole = await page(endpoint, token, 0, 5000);
    expect(whole.list.length).toBe(whole.count);
    const ids = whole.list.map((r) => r.id);
    for (const size of [10, 7]) {
      for (let offset = size; offset < whole.count + size; offset += size * 3) {
        const got = await page(endpoint, token, offset, size);
        expect(got.count, `${name} at ${offset}`).toBe(whole.count);
        expect(
          got.list.map((r) => r.id),
          `${name}: page at ${offset} of ${size}`,
        ).toEqual(ids.slice(offset, offset + size));
      }
    }
    wholes[name] = whole.list;
  }
  return wholes;
}

/** `n` rows of each table from id `from` up (every `step`-th id), in `portal`. */
async function insertRows(portal: TestPortal, tenantId: number, from: number, n: number, step: number) {
  const values = Array.from({ length: n }, (_, i) => `(${from + i * step}, ${tenantId}, ${portal.id}, 0, 0, now(), now())`).join(', ');
  await t.database.exec(
    `insert into alerts (id, tenant_id, portal_id, alert_type, offline_count, created_at, updated_at) values ${values};
     insert into cases (id, tenant_id, portal_id, case_type, offline_count, created_at, updated_at) values ${values}`,
  );
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(START);
  later = marksClock(t.clock, START);
  cast = await createCast(t);
  north = await createPortal(t, cast.tenant, 'North');
  south = await createPortal(t, cast.tenant, 'South');
  elsewhere = await createPortal(t, cast.other, 'Elsewhere');
  // About 600 rows of each list over five blocks of ids, in two portals, and the other tenant's rows in the same blocks.
  await insertRows(north, cast.tenant.id, 2 * IDS_PER_MARK + 5, 150, 3);
  await insertRows(south, cast.tenant.id, 2 * IDS_PER_MARK + 6, 150, 3);
  await insertRows(north, cast.tenant.id, 5 * IDS_PER_MARK - 40, 300, 7);
  await insertRows(elsewhere, cast.other.id, 2 * IDS_PER_MARK + 7, 200, 5);
});
afterAll(() => t.close());

describe('cases and alerts pages started from kept id marks', () => {
  it('equal their slice of the whole list on the walk that reads the marks and on the next ones', async () => {
    const first = await expectPagesOfWholeLists();
    expect(first.alerts.length).toBe(600);
    expect(first.cases.length).toBe(600);
    later();
    await expectPagesOfWholeLists();
    await expectPagesOfWholeLists(cast.otherAdmin.token);
  });

  it('stay exact when rows are added or deleted after the marks were read', async () => {
    const changes = [
      // Newest first: a new row shifts every later page by one.
      () => insertRows(south, cast.tenant.id, 9 * IDS_PER_MARK, 1, 1),
      // In the middle of a block the marks start pages from.
      () => insertRows(north, cast.tenant.id, 2 * IDS_PER_MARK + 301, 2, 3),
      // Deleted: a whole run of rows, and one row.
      () =>
        t.database.exec(`delete from alerts where id between ${5 * IDS_PER_MARK} and ${5 * IDS_PER_MARK + 200};
                             delete from cases where id between ${5 * IDS_PER_MARK} and ${5 * IDS_PER_MARK + 200}`),
      () => t.database.exec(`delete from alerts where id = ${2 * IDS_PER_MARK + 5}; delete from cases where id = ${2 * IDS_PER_MARK + 5}`),
    ];
    let wholes = await expectPagesOfWholeLists();
    for (const change of changes) {
      // Marks read and in use before the change.
      later();
      await expectPagesOfWholeLists();
      await change();
      // Right after it: the marks are out of date and the interval has not passed.
      const after = await expectPagesOfWholeLists();
      expect(after.alerts).not.toEqual(wholes.alerts);
      wholes = after;
      // Marks read again, then used.
      later();
      await expectPagesOfWholeLists();
    }
  });

  it("leave the other tenant's kept marks in force while this one's rows change", async () => {
    later();
    const before = await expectPagesOfWholeLists(cast.otherAdmin.token);
    await insertRows(north, cast.tenant.id, 12 * IDS_PER_MARK, 3, 1);
    expect(await expectPagesOfWholeLists(cast.otherAdmin.token)).toEqual(before);
    await expectPagesOfWholeLists();
  });

  it('stay exact for a tenant with a deleted portal, which keeps no marks', async () => {
    later();
    const before = await expectPagesOfWholeLists();
    await t.database.exec(`update portals set deleted_at = now() where id = ${south.id}`);
    try {
      const whole = await expectPagesOfWholeLists();
      for (const [name] of LISTS) {
        expect(whole[name].length).toBeLessThan(before[name].length);
        expect(whole[name]).toEqual(before[name].filter((r) => r.customerId !== south.id));
      }
      later();
      await expectPagesOfWholeLists();
    } finally {
      await t.database.exec(`update portals set deleted_at = null where id = ${south.id}`);
    }
    later();
    expect(await expectPagesOfWholeLists()).toEqual(before);
  });
});

describe('IdMarkStore', () => {
  const store = () => new IdMarkStore(() => 0);
  // Blocks newest first: 5 rows in block 9, none left in block 7 (all deleted), 3 in block 4, 1 in block 2.
  const marks = idMarksOf('3', [
    { bucket: 9, total: 5 },
    { bucket: 7, total: 0 },
    { bucket: 4, total: 3 },
    { bucket: 2, total: 1 },
  ]);

  it('starts a page in the block holding its first row, after the rows before it there', async () => {
    const kept = store();
    expect(await kept.readIfDue(1, () => Promise.resolve(marks))).toBe(true);
    expect(marks.count).toBe(9);
    expect(kept.startOf(1, 0)).toBeUndefined();
    expect(kept.startOf(1, 4)).toEqual({ idBelow: 10 * IDS_PER_MARK, skip: 4, version: '3', count: 9 });
    expect(kept.startOf(1, 5)).toEqual({ idBelow: 5 * IDS_PER_MARK, skip: 0, version: '3', count: 9 });
    expect(kept.startOf(1, 7)).toEqual({ idBelow: 5 * IDS_PER_MARK, skip: 2, version: '3', count: 9 });
    expect(kept.startOf(1, 8)).toEqual({ idBelow: 3 * IDS_PER_MARK, skip: 0, version: '3', count: 9 });
    expect(kept.startOf(1, 9)).toBeUndefined();
    expect(kept.startOf(2, 4)).toBeUndefined();
  });

  it('forgets marks only of the version a page found out of date, and keeps none from one block', async () => {
    const kept = store();
    await kept.readIfDue(1, () => Promise.resolve(marks));
    kept.drop(1, '2');
    expect(kept.startOf(1, 4)).toBeDefined();
    kept.drop(1, '3');
    expect(kept.startOf(1, 4)).toBeUndefined();
    await kept.readIfDue(2, () => Promise.resolve(idMarksOf('1', [{ bucket: 4, total: 500 }])));
    expect(kept.startOf(2, 40)).toBeUndefined();
  });
});

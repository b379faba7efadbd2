import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTickOnce } from '../../jobs/scheduler.ts';
import { uptimeRollupJob } from '../../jobs/uptime-rollup.job.ts';
import { createCast, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { DAY, HOUR, historyKit, prng } from '../../../test/kits/stats/history-test-kit.ts';
import { keptWindowKit } from '../../../test/kits/stats/kept-window-kit.ts';
import { KEPT_BASE_LAG_MS, KEPT_WINDOW_MS } from './kept-window-build.repository.ts';
import { createKeptBases } from './kept-bases.ts';
import { keptScoresByPortal } from './kept-window-query.repository.ts';
import { reliabilityByPortalLive, reliabilityWithRows } from './reliability.repository.ts';

// What a read of kept-window scores costs in statements (on PostgreSQL each is a round trip): a
// tenant's base as last read is checked in the scores' own statement, and a page of the Portals list
// in its default order reads its rows in that statement too; a base that moved or a back-dated period
// costs more statements, never a wrong score. That the scores equal the live ones as the history
// changes: kept-window.test.ts.

const MIN = 60_000;
const NOW = new Date('2026-05-20T13:17:42.123Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const mine: TestPortal[] = [];
const rand = prng(20261207);
const { between, insertDevice, randomDevice } = historyKit(() => t, rand);
const { countedExecutor, flip, openDeviceOf, tenantPortalsByName } = keptWindowKit(() => t);

/** The list's window at the clock's now: the last 30 days. */
const windowNow = () => ({ from: new Date(t.clock.now().getTime() - KEPT_WINDOW_MS), to: t.clock.now() });

async function runJob(now: Date) {
  t.clock.set(now);
  expect(await runTickOnce(t.deps, uptimeRollupJob)).toBe(true);
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  cast = await createCast(t);
  const historyStart = NOW.getTime() - 45 * DAY;
  // Ten portals of random histories (three pages of four), each with a steady device online all along (for a back-dated flip).
  for (const name of ['alpha', 'Bravo', 'charlie', 'Delta', 'echo', 'foxtrot', 'golf', 'hotel', 'India', 'juliett']) {
    const portal = await createPortal(t, cast.tenant, name);
    mine.push(portal);
    for (let i = between(1, 4); i > 0; i--) await randomDevice(portal, historyStart + between(0, 10 * DAY), NOW.getTime() - HOUR);
    await insertDevice(portal, [{ status: 1, s: historyStart, e: null }], null);
  }
  // Another tenant's portal: never in these reads.
  const other = await createPortal(t, cast.other, 'kilo');
  await randomDevice(other, historyStart, NOW.getTime() - HOUR);
  await runJob(at(20 * MIN));
}, 60_000);
afterAll(() => t.close());

describe('kept reliability windows: statements a read costs', () => {
  it("a tenant's base as last read: checked by the scores' own statement, read again once the job keeps a newer one", async () => {
    const tenantId = cast.tenant.id;
    const bases = createKeptBases();
    const db = t.database.db;
    const counted = countedExecutor();
    const scoresNow = async () => (await keptScoresByPortal(counted.executor, { tenantId, ...windowNow() }, undefined, bases))!.scores;
    const live = () => reliabilityByPortalLive(db, { tenantId, ...windowNow() });
    t.clock.set(at(21 * MIN));
    expect(await scoresNow()).toEqual(await live());
    expect(counted.statements, 'the base, then the scores').toBe(2);
    counted.statements = 0;
    t.clock.set(at(22 * MIN));
    expect(await scoresNow()).toEqual(await live());
    expect(counted.statements, 'the scores, the base checked with them').toBe(1);
    // Two runs later the base last read is gone with its kept rows: the check finds it no longer stands.
    await runJob(at(25 * MIN));
    await runJob(at(30 * MIN));
    counted.statements = 0;
    expect(await scoresNow()).toEqual(await live());
    expect(counted.statements, 'the stale check, the base, the scores').toBe(3);
    expect(bases.get(tenantId)?.to).toEqual(at(30 * MIN - KEPT_BASE_LAG_MS));
  }, 120_000);

  it("a page's rows and their scores in one statement from the base as last read; the base moved or a back-dated period costs more, never a wrong score", async () => {
    const tenantId = cast.tenant.id;
    const bases = createKeptBases();
    const db = t.database.db;
    const counted = countedExecutor();
    const pageOf = (offset: number) =>
      sql`select p.id, p.name, row_number() over (order by lower(p.name), p.id) as page_order
            from portals p where p.tenant_id = ${tenantId} and p.deleted_at is null
           order by lower(p.name), p.id limit 4 offset ${offset}`;
    /** The page at `offset`: its ids in name order and their scores equal the live ones; the statements it took. */
    const expectPage = async (offset: number, label: string) => {
      counted.statements = 0;
      const got = await reliabilityWithRows<{ id: number; name: string }>(
        counted.executor,
        { tenantId, ...windowNow() },
        pageOf(offset),
        undefined,
        bases,
      );
      const ids = (await tenantPortalsByName(tenantId)).slice(offset, offset + 4);
      expect(
        got.rows.map((r) => r.id),
        label,
      ).toEqual(ids);
      const live = await reliabilityByPortalLive(db, { tenantId, ...windowNow(), portalIds: ids });
      expect(got.scores, label).toEqual(live);
      return counted.statements;
    };
    t.clock.set(at(31 * MIN));
    expect(await expectPage(0, 'no base read yet'), 'the rows, the base, the scores').toBe(3);
    expect(await expectPage(4, 'the base as last read'), 'the rows with their scores').toBe(1);
    expect(await expectPage(8, 'the last page'), 'the rows with their scores').toBe(1);
    expect(await expectPage(400, 'past the end'), 'no rows, no scores').toBe(1);
    // The job keeps a newer base: the one statement finds its base gone; the base is read again for the page's scores.
    await runJob(at(35 * MIN));
    await runJob(at(40 * MIN));
    t.clock.set(at(41 * MIN));
    expect(await expectPage(0, 'the base moved'), 'the rows, the base, the scores').toBe(3);
    expect(bases.get(tenantId)?.to).toEqual(at(40 * MIN - KEPT_BASE_LAG_MS));
    expect(await expectPage(0, 'the new base'), 'the rows with their scores').toBe(1);
    // A back-dated flip in the first page's first portal: it is scored another way, the others from the base.
    const firstId = (await tenantPortalsByName(tenantId))[0];
    const first = mine.find((p) => p.id === firstId)!;
    await flip(first, await openDeviceOf(first, at(-2 * DAY)), 0, at(-2 * DAY));
    expect(await expectPage(0, 'a back-dated period'), 'and the unsettled portal scored another way').toBeGreaterThan(1);
    expect(await expectPage(4, 'a page without it'), 'the rows with their scores').toBe(1);
  }, 120_000);
});

import { PORTAL_SORT, portalEndpoints, type Portal, type PortalSortField } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createDevices, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/**
 * The Portals table, /customers/all and the header search. Names use plain
 * letters so the expected order is the same under every database collation.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const portals: Record<string, TestPortal> = {};
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-11-22T06:00:00.000Z');
  cast = await createCast(t);
  const ago = (days: number) => new Date(t.clock.now().getTime() - days * DAY);
  // name -> devices; per-type counts and reliability differ on every column.
  const fixtures: [string, { deviceType: number; status: 0 | 1 }[]][] = [
    [
      'bravo',
      [
        { deviceType: 0, status: 1 },
        { deviceType: 0, status: 1 },
        { deviceType: 1, status: 1 },
      ],
    ],
    [
      'Alpha',
      [
        { deviceType: 0, status: 1 },
        { deviceType: 2, status: 0 },
        { deviceType: 3, status: 0 },
        { deviceType: 4, status: 1 },
      ],
    ],
    [
      'delta',
      [
        { deviceType: 1, status: 0 },
        { deviceType: 1, status: 0 },
        { deviceType: 4, status: 0 },
        { deviceType: 3, status: 1 },
      ],
    ],
    ['Charlie', []],
  ];
  for (const [name, devices] of fixtures) {
    t.clock.advance(60_000);
    portals[name] = await createPortal(t, cast.tenant, name);
    await t.database.exec(`update portals set created_at = '${t.clock.now().toISOString()}' where id = ${portals[name].id}`);
    await createDevices(
      t,
      portals[name],
      devices.map((d) => ({ ...d, since: ago(2) })),
    );
  }
  // A removed device counts nowhere.
  const [gone] = await createDevices(t, portals.bravo, [{ deviceType: 0, status: 1, since: ago(2) }]);
  await t.database.exec(`update devices set removed_at = now() where id = ${gone.id}`);
  portals.echo = await createPortal(t, cast.other, 'echo');
});
afterAll(() => t.close());

async function list(token: string, query: Record<string, unknown> = {}) {
  const res = await t.call(portalEndpoints.list, { token, query });
  expect(res.status).toBe(200);
  return res.body.data;
}

const keyOf = (p: Portal, field: PortalSortField) => {
  const value = field === 'name' || field === 'customerName' ? p.name : (p as unknown as Record<string, string | number>)[field];
  return typeof value === 'string' ? value.toLowerCase() : value;
};

describe('GET /customers', () => {
  it('lists the tenant’s portals with per-type counts (removed devices excluded) and reliability', async () => {
    const data = await list(cast.salesman.token, { sort: ['name', 'ASC'] });
    expect(data.count).toBe(4);
    expect(data.list.map((p) => p.name)).toEqual(['Alpha', 'bravo', 'Charlie', 'delta']);
    const byName = Object.fromEntries(data.list.map((p) => [p.name, p]));
    expect(byName.bravo).toMatchObject({
      cameraCount: 2,
      intercomCount: 1,
      accessCount: 0,
      alarmCount: 0,
      environmentalCount: 0,
      reliabilityScore: 100,
      tenantName: cast.tenant.name,
    });
    expect(byName.Alpha).toMatchObject({ cameraCount: 1, accessCount: 1, alarmCount: 1, environmentalCount: 1, reliabilityScore: 50 });
    expect(byName.delta).toMatchObject({ intercomCount: 2, alarmCount: 1, environmentalCount: 1, reliabilityScore: 25 });
    expect(byName.Charlie).toMatchObject({ cameraCount: 0, reliabilityScore: -1 });
    expect(byName.bravo.webhookUrl).toBe(`${t.config.publicUrl}/v0/webhooks/portals/${portals.bravo.id}`);
  });

  it.each(PORTAL_SORT.filter((f) => f !== 'tenantName'))('sorts on %s in both directions', async (field) => {
    for (const dir of ['ASC', 'DESC'] as const) {
      const { list: rows } = await list(cast.admin.token, { sort: [field, dir] });
      const keys = rows.map((p) => keyOf(p, field));
      const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(keys).toEqual(dir === 'ASC' ? sorted : sorted.reverse());
      expect(new Set(keys).size).toBeGreaterThan(1);
    }
  });

  it('pages with range and counts every match', async () => {
    const page = await list(cast.admin.token, { sort: ['reliabilityScore', 'DESC'], range: [1, 2] });
    expect(page.count).toBe(4);
    expect(page.list.map((p) => p.name)).toEqual(['Alpha', 'delta']);
    const sqlPage = await list(cast.admin.token, { sort: ['cameraCount', 'DESC'], range: [0, 1] });
    expect(sqlPage.list.map((p) => p.name)).toEqual(['bravo']);
  });

  it('pages in name order as slices of the whole list, a deleted portal in neither the pages nor the count', async () => {
    const gone = await createPortal(t, cast.tenant, 'Bygone');
    await t.database.db.execute(sql`update portals set deleted_at = now() where id = ${gone.id}`);
    for (const dir of ['ASC', 'DESC'] as const) {
      const whole = await list(cast.admin.token, { sort: ['name', dir] });
      expect(whole.count).toBe(4);
      expect(whole.list.map((p) => p.name)).not.toContain('Bygone');
      for (const size of [1, 3]) {
        for (let offset = 0; offset <= whole.count; offset += size) {
          const page = await list(cast.admin.token, { sort: ['name', dir], range: [offset, size] });
          expect(page.count, `${dir} ${offset}+${size}`).toBe(4);
          expect(page.list.map((p) => p.id)).toEqual(whole.list.slice(offset, offset + size).map((p) => p.id));
        }
      }
    }
  });

  it('filters with q: case-insensitive substring, wildcards taken literally', async () => {
    expect((await list(cast.admin.token, { filter: { q: 'LT' } })).list.map((p) => p.name)).toEqual(['delta']);
    expect((await list(cast.admin.token, { filter: { q: '%' } })).count).toBe(0);
  });

  it('shows every tenant to the superAdmin, with tenantName, sortable', async () => {
    const data = await list(cast.superAdmin.token, { sort: ['tenantName', 'DESC'] });
    expect(data.count).toBe(5);
    const names = data.list.map((p) => p.tenantName.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    expect(data.list.find((p) => p.name === 'echo')!.tenantName).toBe(cast.other.name);
  });

  it('answers the same when asked again and again (PostgreSQL: prepared statements past their first plans)', async () => {
    // PostgreSQL plans a prepared statement custom for its first five runs on a connection, then may keep a generic plan.
    const queries = [
      { sort: ['name', 'ASC'], range: [1, 2] },
      { sort: ['reliabilityScore', 'DESC'], range: [0, 3] },
      { filter: { q: 'a' }, sort: ['reliabilityScore', 'ASC'] },
    ];
    const first = await Promise.all(queries.map((q) => list(cast.admin.token, q)));
    expect(first.map((d) => d.list.map((p) => p.name))).toEqual([
      ['bravo', 'Charlie'],
      ['bravo', 'Alpha', 'delta'],
      ['Charlie', 'delta', 'Alpha', 'bravo'],
    ]);
    for (let i = 0; i < 12; i++) {
      for (const [n, q] of queries.entries()) expect(await list(cast.admin.token, q)).toEqual(first[n]);
    }
  });

  it('rejects unknown sort fields and filter keys with 400', async () => {
    expect((await t.call(portalEndpoints.list, { token: cast.admin.token, query: { sort: ['apiKey', 'ASC'] } })).status).toBe(400);
    expect((await t.call(portalEndpoints.list, { token: cast.admin.token, query: { filter: { tenantId: 2 } } })).status).toBe(400);
  });
});

describe('GET /customers/all and /customers/search', () => {
  it('all: {id, name} of every portal of the caller’s tenant (superAdmin: every tenant)', async () => {
    const mine = (await t.call(portalEndpoints.all, { token: cast.pm.token })).body.data;
    expect(mine.count).toBe(4);
    expect(mine.list).toContainEqual({ id: portals.bravo.id, name: 'bravo' });
    expect(mine.list.map((p) => p.name)).not.toContain('echo');
    expect((await t.call(portalEndpoints.all, { token: cast.superAdmin.token })).body.data.count).toBe(5);
  });

  it('search: prefix matches first, then contains, case-insensitive, own tenant only', async () => {
    await createPortal(t, cast.tenant, 'The Alphorn');
    await createPortal(t, cast.tenant, 'alpine');
    await createPortal(t, cast.other, 'Alpaca');
    const res = await t.call(portalEndpoints.search, { token: cast.salesman.token, query: { filter: { name: 'ALP' } } });
    expect(res.body.data.list.map((p) => p.name)).toEqual(['Alpha', 'alpine', 'The Alphorn']);
    expect(res.body.data.count).toBe(3);
  });

  it('search: under 2 characters answers an empty list', async () => {
    for (const name of ['a', ' a ', '']) {
      const res = await t.call(portalEndpoints.search, { token: cast.admin.token, query: { filter: { name } } });
      expect(res.body.data).toEqual({ list: [], count: 0 });
    }
    expect((await t.call(portalEndpoints.search, { token: cast.admin.token })).body.data).toEqual({ list: [], count: 0 });
    expect((await t.call(portalEndpoints.search, { token: cast.admin.token, query: { filter: { q: 'ab' } } })).status).toBe(400);
  });

  it('search: at most 20 rows, count is every match', async () => {
    for (let i = 0; i < 25; i++) await createPortal(t, cast.other, `zulu ${String(i).padStart(2, '0')}`);
    const res = await t.call(portalEndpoints.search, { token: cast.otherAdmin.token, query: { filter: { name: 'zu' } } });
    expect(res.body.data.list).toHaveLength(20);
    expect(res.body.data.count).toBe(25);
    const inOtherTenant = await t.database.db.execute(
      sql`select count(*)::int as n from portals where tenant_id = ${cast.tenant.id} and name like 'zulu%'`,
    );
    expect(Number((inOtherTenant as { rows: { n: number }[] }).rows[0].n)).toBe(0);
  });
});

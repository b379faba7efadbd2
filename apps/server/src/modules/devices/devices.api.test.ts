import { DEVICE_SORT, deviceEndpoints, type Device, type DeviceSortField, type ListQueryInput } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { createCast, createDevices, createPortal, createUser, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/** Names and models use plain letters so the expected order holds under every collation. */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let south: TestPortal;
let foreign: TestPortal;
const ids: Record<string, number> = {};
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-11-22T06:00:00.000Z');
  cast = await createCast(t);
  north = await createPortal(t, cast.tenant, 'north');
  south = await createPortal(t, cast.tenant, 'South');
  foreign = await createPortal(t, cast.other, 'foreign');
  const ago = (h: number) => new Date(t.clock.now().getTime() - h * HOUR);
  const specs: [TestPortal, string, number, 0 | 1, number][] = [
    [north, 'alpha', 0, 1, 5],
    [north, 'Bravo', 1, 0, 4],
    [north, 'charlie', 2, 1, 3],
    [south, 'Delta', 3, 0, 2],
    [south, 'echo', 4, 1, 1],
    [foreign, 'alien', 0, 1, 1],
  ];
  for (const [portal, name, deviceType, status, hours] of specs) {
    t.clock.advance(1000);
    const [d] = await createDevices(t, portal, [{ name, deviceType, status, since: ago(hours) }]);
    ids[name] = d.id;
  }
  const models: Record<string, string> = { alpha: 'kappa', Bravo: 'Iota', charlie: 'theta', Delta: 'Eta', echo: 'zeta' };
  for (const [name, model] of Object.entries(models))
    await t.database.exec(
      `update devices set device_model = '${model}', created_at = created_at + interval '${ids[name]} seconds' where id = ${ids[name]}`,
    );
  // An offline device never seen online has no lastOnline.
  await t.database.exec(`update devices set last_online = null where id = ${ids.Delta}`);
  // Case 1 holds alpha (open) and Bravo; alert 1 holds charlie.
  const T = cast.tenant.id;
  await t.database.exec(`
    insert into cases (tenant_id, id, portal_id, case_type, offline_count) values (${T}, 101, ${north.id}, 0, 2);
    insert into case_devices (tenant_id, case_id, device_id) values (${T}, 101, ${ids.alpha}), (${T}, 101, ${ids.Bravo});
    update devices set open_case_id = 101 where id = ${ids.alpha};
    insert into alerts (tenant_id, id, portal_id, alert_type, offline_count) values (${T}, 201, ${north.id}, 0, 1);
    insert into alert_devices (tenant_id, alert_id, device_id) values (${T}, 201, ${ids.charlie});`);
  // A removed device is listed nowhere.
  const [gone] = await createDevices(t, north, [{ name: 'removed one', status: 0 }]);
  await t.database.exec(`update devices set removed_at = now() where id = ${gone.id}`);
  ids.removed = gone.id;
});
afterAll(() => t.close());

async function list(token: string, query: Record<string, unknown> = {}) {
  const res = await t.call(deviceEndpoints.list, { token, query });
  expect(res.status).toBe(200);
  return res.body.data;
}
const names = (rows: Device[]) => rows.map((d) => d.name);

describe('GET /devices', () => {
  it('lists the tenant’s devices (removed ones excluded) with the product fields', async () => {
    const data = await list(cast.salesman.token, { sort: ['name', 'ASC'] });
    expect(data.count).toBe(5);
    expect(names(data.list)).toEqual(['alpha', 'Bravo', 'charlie', 'Delta', 'echo']);
    const alpha = data.list[0];
    expect(alpha).toMatchObject({
      id: ids.alpha,
      deviceType: 0,
      deviceModel: 'kappa',
      status: 1,
      isClosed: 0,
      caseId: 101,
      customerId: north.id,
      customerName: 'north',
      tenantName: cast.tenant.name,
    });
    expect(alpha.lastOnline).toBe(new Date(Date.parse('2026-11-22T06:00:01.000Z') - 5 * HOUR).toISOString());
    expect(data.list[1]).toMatchObject({ name: 'Bravo', isClosed: 1, caseId: null });
    expect(data.list[3]).toMatchObject({ name: 'Delta', lastOnline: null });
  });

  it.each([
    [{ customerId: 'south' }, ['Delta', 'echo']],
    [{ caseId: 101 }, ['alpha', 'Bravo']],
    [{ alertId: 201 }, ['charlie']],
    [{ status: 0 }, ['Bravo', 'Delta']],
    [{ deviceType: 4 }, ['echo']],
    [{ q: 'HA' }, ['alpha', 'charlie']],
    [{ customerId: 'north', status: 1 }, ['alpha', 'charlie']],
  ])('filters %j', async (filter, expected) => {
    const resolved = { ...filter, ...('customerId' in filter && { customerId: filter.customerId === 'south' ? south.id : north.id }) };
    const data = await list(cast.admin.token, { filter: resolved, sort: ['name', 'ASC'] });
    expect(names(data.list)).toEqual(expected);
    expect(data.count).toBe(expected.length);
  });

  const keyOf = (d: Device, field: DeviceSortField) => {
    const value = (d as unknown as Record<string, string | number | null>)[field];
    return typeof value === 'string' && field !== 'lastOnline' && field !== 'createdAt' ? value.toLowerCase() : value;
  };

  it.each(DEVICE_SORT)('sorts on %s in both directions', async (field) => {
    for (const dir of ['ASC', 'DESC'] as const) {
      const rows = (await list(cast.admin.token, { sort: [field, dir] })).list;
      const keys = rows.map((d) => keyOf(d, field));
      const present = keys.filter((k) => k !== null);
      const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(present).toEqual(dir === 'ASC' ? sorted : sorted.reverse());
      // Devices never seen online come last either way.
      expect(keys.slice(present.length).every((k) => k === null)).toBe(true);
      expect(new Set(keys).size).toBeGreaterThan(1);
    }
  });

  it('runs every statement without parallel workers, on every pooled connection (PGlite has none)', async () => {
    // Ten transactions at once take ten pooled connections on PostgreSQL.
    const settings = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.database.db.transaction(async (tx) => {
          const rows = await queryRows<{ max_parallel_workers_per_gather: string }>(tx, sql`show max_parallel_workers_per_gather`);
          await tx.execute(sql`select pg_sleep(0.05)`);
          return rows[0].max_parallel_workers_per_gather;
        }),
      ),
    );
    expect(settings).toEqual(Array(10).fill('0'));
  });

  it('skips rows of the name order index-only: its index holds the name key its order is of (migrations 0007, 0015)', async () => {
    const [index] = await queryRows<{ indexdef: string }>(
      t.database.db,
      sql`select indexdef from pg_indexes where indexname = 'devices_list_name_idx'`,
    );
    expect(index?.indexdef).toContain('(tenant_id, name_key, id) WHERE (removed_at IS NULL)');
  });

  it('answers each call with its own values when the same list is asked again and again (PostgreSQL: generic plans)', async () => {
    // PostgreSQL plans a prepared statement custom for its first runs on a connection, then keeps a
    // generic plan: the later calls, with values that alternate, must still answer their own values.
    const cases: [Record<string, unknown>, string[]][] = [
      [{ filter: { status: 0 }, sort: ['name', 'ASC'] }, ['Bravo', 'Delta']],
      [{ filter: { status: 1 }, sort: ['name', 'ASC'] }, ['alpha', 'charlie', 'echo']],
      [{ sort: ['name', 'DESC'], range: [1, 2] }, ['Delta', 'charlie']],
      [{ sort: ['name', 'DESC'], range: [3, 4] }, ['Bravo', 'alpha']],
      [{ filter: { customerId: south.id }, sort: ['lastOnline', 'DESC'] }, ['echo', 'Delta']],
    ];
    for (let round = 0; round < 8; round++) {
      for (const [query, expected] of cases) expect(names((await list(cast.admin.token, query)).list)).toEqual(expected);
    }
  });

  it('pages with range', async () => {
    const page = await list(cast.admin.token, { sort: ['name', 'DESC'], range: [1, 2] });
    expect(names(page.list)).toEqual(['Delta', 'charlie']);
    expect(page.count).toBe(5);
  });

  it('keeps tenants apart: another tenant’s ids filter to nothing; the superAdmin sees all', async () => {
    expect((await list(cast.admin.token, { filter: { customerId: foreign.id } })).count).toBe(0);
    expect((await list(cast.otherAdmin.token, { filter: { caseId: 101 } })).count).toBe(0);
    expect(names((await list(cast.otherAdmin.token)).list)).toEqual(['alien']);
    const all = await list(cast.superAdmin.token, { sort: ['customerName', 'ASC'] });
    expect(all.count).toBe(6);
    expect(all.list.find((d) => d.name === 'alien')!.tenantName).toBe(cast.other.name);
  });

  it('rejects unknown filters and sorts with 400', async () => {
    const bad = [
      { filter: { tenantId: 1 } },
      { sort: ['externalId', 'ASC'] },
      { filter: { status: 2 } },
      { range: [0] },
    ] as unknown as ListQueryInput[];
    for (const query of bad) {
      expect((await t.call(deviceEndpoints.list, { token: cast.admin.token, query })).status).toBe(400);
    }
  });

  it('refuses anonymous callers and users without a tenant', async () => {
    expect((await t.call(deviceEndpoints.list, {})).status).toBe(401);
    const loner = await createUser(t, { tenant: null, roles: [] });
    expect((await t.call(deviceEndpoints.list, { token: loner.token })).status).toBe(403);
  });
});

describe('GET /devices/:id', () => {
  it('reads one device of the tenant', async () => {
    const res = await t.call(deviceEndpoints.get, { token: cast.pm.token, params: { id: ids.echo } });
    expect(res.body.data).toMatchObject({ id: ids.echo, name: 'echo', customerName: 'South', isClosed: 1 });
  });

  it("answers 404 for another tenant's device, a removed device and a nonexistent id", async () => {
    for (const id of [ids.alien, ids.removed, 999_999]) {
      const res = await t.call(deviceEndpoints.get, { token: cast.admin.token, params: { id } });
      expect(res.body.error).toEqual({ code: 'NOT_FOUND', msg: 'Resource not found.' });
    }
    expect((await t.call(deviceEndpoints.get, { token: cast.superAdmin.token, params: { id: ids.alien } })).status).toBe(200);
  });
});

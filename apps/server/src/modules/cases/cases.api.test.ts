import { caseEndpoints, CASE_MSG, MSG } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { createCast, createDevices, createPortal, createTenant, createUser, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { expectError, openCaseOf, removeDevices } from '../../../test/kits/cases/operations-test-support.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

async function portalWith(statuses: (0 | 1)[], name?: string): Promise<{ portal: TestPortal; ids: number[] }> {
  const portal = await createPortal(t, cast.tenant, name);
  const devices = await createDevices(
    t,
    portal,
    statuses.map((status) => ({ status })),
  );
  return { portal, ids: devices.map((d) => d.id) };
}

const createCase = (portalId: number, token: string, body?: unknown) =>
  t.call(caseEndpoints.create, { params: { id: portalId }, token, body });

describe('POST /customers/:id/case-stats', () => {
  it('opens a case holding the offline devices not already in an open case', async () => {
    const { portal, ids } = await portalWith([0, 0, 1, 0]);
    await removeDevices(t, [ids[3]]);
    const res = await createCase(portal.id, cast.pm.token, { customerId: portal.id });
    expect(res.status).toBe(201);
    const created = res.body.data as { id: number };
    expect(res.body.data).toMatchObject({
      customerId: portal.id,
      customerName: portal.name,
      tenantName: cast.tenant.name,
      offlineCount: 2,
      caseType: 0,
      completedAt: null,
      alertId: null,
    });
    expect(await openCaseOf(t, ids[0])).toBe(created.id);
    expect(await openCaseOf(t, ids[1])).toBe(created.id);
    expect(await openCaseOf(t, ids[2])).toBeNull();
    expect(await openCaseOf(t, ids[3])).toBeNull();

    const again = await createCase(portal.id, cast.admin.token);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ data: { error: true, msg: MSG.noOfflineDevicesForCase } });

    const [late] = await createDevices(t, portal, [{ status: 0 }]);
    const third = await createCase(portal.id, cast.admin.token, {});
    expect(third.status).toBe(201);
    expect(third.body.data).toMatchObject({ offlineCount: 1 });
    expect(await openCaseOf(t, late.id)).toBe((third.body.data as { id: number }).id);
  });

  it('answers the refusal when the portal has no offline device at all', async () => {
    const { portal } = await portalWith([1, 1]);
    const res = await createCase(portal.id, cast.admin.token, { customerId: String(portal.id) });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ error: true, msg: MSG.noOfflineDevicesForCase });
    const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from cases where portal_id = ${portal.id}`);
    expect(row.n).toBe(0);
  });

  it('validates the body and the path', async () => {
    const { portal } = await portalWith([0]);
    expectError(await createCase(portal.id, cast.admin.token, { customerId: portal.id + 1000 }), 400, CASE_MSG.customerMismatch);
    expectError(await createCase(portal.id, cast.admin.token, { customerId: null }), 400, MSG.selectCustomerForCase);
    expectError(await createCase(portal.id, cast.admin.token, { customerId: 'abc' }), 400, MSG.selectCustomerForCase);
    expectError(await createCase(portal.id, cast.admin.token, { customerId: portal.id, extra: 1 }), 400);
    const byName = await t.app.inject({
      method: 'POST',
      url: `/v0/api/customers/${encodeURIComponent(portal.name)}/case-stats`,
      headers: { authorization: `Bearer ${cast.admin.token}` },
      payload: {},
    });
    // A name is no id: a path id other than a canonical decimal names nothing (docs/decisions.md 18).
    expect(byName.statusCode).toBe(404);
  });

  it('enforces roles and tenant isolation', async () => {
    const { portal, ids } = await portalWith([0]);
    expectError(await createCase(portal.id, cast.salesman.token), 403);
    expectError(await createCase(portal.id, cast.superAdmin.token), 403, MSG.tenantOnly);
    expectError(await createCase(portal.id, cast.otherAdmin.token), 404, 'Resource not found.');
    expectError(await createCase(999_999, cast.admin.token), 404);
    expectError(await t.call(caseEndpoints.create, { params: { id: portal.id }, body: {} }), 401);
    expect(await openCaseOf(t, ids[0])).toBeNull();
  });

  it('never puts a device in two open cases when creations race', async () => {
    const { portal, ids } = await portalWith([0, 0, 0, 0, 0]);
    const answers = await Promise.all(Array.from({ length: 8 }, () => createCase(portal.id, cast.admin.token)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200 && (a.body.data as { error?: boolean }).error === true)).toHaveLength(7);
    const rows = await queryRows<{ device_id: number; n: number }>(
      t.database.db,
      sql`select cd.device_id, count(*)::int as n from case_devices cd join cases c on c.tenant_id = cd.tenant_id and c.id = cd.case_id
          where c.portal_id = ${portal.id} and cd.released_at is null group by cd.device_id order by cd.device_id`,
    );
    expect(rows).toEqual(ids.map((id) => ({ device_id: id, n: 1 })));
  });
});

describe('PATCH /case-stats/:id', () => {
  it('changes the status; Completed releases the devices, leaving it does not re-capture them', async () => {
    const { portal, ids } = await portalWith([0, 0]);
    const opened = (await createCase(portal.id, cast.admin.token)).body.data as { id: number };
    const progress = await t.call(caseEndpoints.update, { params: { id: opened.id }, token: cast.pm.token, body: { caseType: 1 } });
    expect(progress.status).toBe(200);
    expect(progress.body.data).toMatchObject({ id: opened.id, caseType: 1, completedAt: null });
    const alias = await t.call(caseEndpoints.update, { params: { id: opened.id }, token: cast.pm.token, body: { status: 3 } });
    expect(alias.body.data.caseType).toBe(3);

    const done = await t.call(caseEndpoints.update, { params: { id: opened.id }, token: cast.admin.token, body: { caseType: 4 } });
    expect(done.body.data).toMatchObject({ caseType: 4, completedAt: t.clock.now().toISOString() });
    expect(await openCaseOf(t, ids[0])).toBeNull();
    const released = await queryRows<{ released_at: unknown }>(
      t.database.db,
      sql`select released_at from case_devices where case_id = ${opened.id}`,
    );
    expect(released).toHaveLength(2);
    expect(released.every((r) => r.released_at !== null)).toBe(true);
    const devices = await t.call(caseEndpoints.devices, { params: { id: opened.id }, token: cast.salesman.token });
    expect(devices.body.data.list.map((d) => [d.isClosed, d.caseId])).toEqual([
      [1, null],
      [1, null],
    ]);

    const reopened = await t.call(caseEndpoints.update, { params: { id: opened.id }, token: cast.admin.token, body: { caseType: 1 } });
    expect(reopened.body.data).toMatchObject({ caseType: 1, completedAt: null, offlineCount: 2 });
    expect(await openCaseOf(t, ids[0])).toBeNull();

    const next = await createCase(portal.id, cast.admin.token);
    expect(next.status).toBe(201);
    expect(next.body.data).toMatchObject({ offlineCount: 2 });
  });

  it('validates the status code and enforces roles and isolation', async () => {
    const { portal } = await portalWith([0]);
    const opened = (await createCase(portal.id, cast.admin.token)).body.data as { id: number };
    for (const body of [{ caseType: 5 }, { caseType: -1 }, { caseType: 1.5 }, { caseType: '2' }, {}])
      expectError(await t.call(caseEndpoints.update, { params: { id: opened.id }, token: cast.admin.token, body }), 400, {
        endsWith: CASE_MSG.caseType,
      });
    expectError(await t.call(caseEndpoints.update, { params: { id: opened.id }, token: cast.salesman.token, body: { caseType: 1 } }), 403);
    expectError(
      await t.call(caseEndpoints.update, { params: { id: opened.id }, token: cast.superAdmin.token, body: { caseType: 1 } }),
      403,
    );
    expectError(
      await t.call(caseEndpoints.update, { params: { id: opened.id }, token: cast.otherAdmin.token, body: { caseType: 4 } }),
      404,
    );
    const unchanged = await t.call(caseEndpoints.get, { params: { id: opened.id }, token: cast.admin.token });
    expect(unchanged.body.data.caseType).toBe(0);
  });
});

describe('reading cases', () => {
  it('lists with range, sort, filter and count; superAdmin sees every tenant', async () => {
    const a = await portalWith([0, 0, 0], 'Zeta Security');
    const b = await portalWith([0], 'Alpha Alarms');
    const caseA = (await createCase(a.portal.id, cast.admin.token)).body.data as { id: number };
    await createCase(b.portal.id, cast.admin.token);
    await t.call(caseEndpoints.update, { params: { id: caseA.id }, token: cast.admin.token, body: { caseType: 2 } });
    const foreignPortal = await createPortal(t, cast.other);
    await createDevices(t, foreignPortal, [{ status: 0 }]);
    expect((await createCase(foreignPortal.id, cast.otherAdmin.token)).status).toBe(201);

    const all = await t.call(caseEndpoints.list, { token: cast.salesman.token, query: { range: [0, 1000] } });
    expect(all.status).toBe(200);
    expect(all.body.data.list.every((c) => c.tenantName === cast.tenant.name)).toBe(true);
    expect(all.body.data.count).toBe(all.body.data.list.length);

    const byName = await t.call(caseEndpoints.list, { token: cast.admin.token, query: { filter: { q: 'zeta' } } });
    expect(byName.body.data.list.map((c) => c.id)).toEqual([caseA.id]);
    const byType = await t.call(caseEndpoints.list, { token: cast.admin.token, query: { filter: { caseType: 2 } } });
    expect(byType.body.data.list.map((c) => c.id)).toEqual([caseA.id]);
    const byCustomer = await t.call(caseEndpoints.list, { token: cast.admin.token, query: { filter: { customerId: b.portal.id } } });
    expect(byCustomer.body.data.list.map((c) => c.customerName)).toEqual(['Alpha Alarms']);

    const sorted = await t.call(caseEndpoints.list, { token: cast.admin.token, query: { sort: ['offlineCount', 'DESC'], range: [0, 2] } });
    expect(sorted.body.data.list).toHaveLength(2);
    expect(sorted.body.data.list[0].offlineCount).toBeGreaterThanOrEqual(sorted.body.data.list[1].offlineCount);
    expect(sorted.body.data.count).toBe(all.body.data.count);

    const platform = await t.call(caseEndpoints.list, { token: cast.superAdmin.token, query: { range: [0, 1000] } });
    expect(new Set(platform.body.data.list.map((c) => c.tenantName))).toEqual(new Set([cast.tenant.name, cast.other.name]));

    expectError(await t.call(caseEndpoints.list, { token: cast.admin.token, query: { sort: ['password', 'ASC'] } }), 400);
    expectError(await t.call(caseEndpoints.list, { token: cast.admin.token, query: { filter: { tenantId: 1 } } }), 400);
    expectError(await t.call(caseEndpoints.list, {}), 401);
  });

  it("gets one case, a portal's cases and a case's devices; another tenant's ids answer 404", async () => {
    const { portal, ids } = await portalWith([0, 1, 0]);
    const opened = (await createCase(portal.id, cast.pm.token)).body.data as { id: number };
    const one = await t.call(caseEndpoints.get, { params: { id: opened.id }, token: cast.salesman.token });
    expect(one.body.data).toMatchObject({ id: opened.id, customerId: portal.id, offlineCount: 2 });
    expect((await t.call(caseEndpoints.get, { params: { id: opened.id }, token: cast.superAdmin.token })).status).toBe(200);
    expectError(await t.call(caseEndpoints.get, { params: { id: opened.id }, token: cast.otherAdmin.token }), 404);

    const ofPortal = await t.call(caseEndpoints.listOfCustomer, { params: { id: portal.id }, token: cast.admin.token });
    expect(ofPortal.body.data).toMatchObject({ count: 1, list: [{ id: opened.id }] });
    expectError(await t.call(caseEndpoints.listOfCustomer, { params: { id: portal.id }, token: cast.otherAdmin.token }), 404);

    const devices = await t.call(caseEndpoints.devices, {
      params: { id: opened.id },
      token: cast.admin.token,
      query: { sort: ['id', 'ASC'] },
    });
    expect(devices.body.data.count).toBe(2);
    expect(devices.body.data.list.map((d) => d.id)).toEqual([ids[0], ids[2]]);
    expect(devices.body.data.list[0]).toMatchObject({
      status: 0,
      isClosed: 0,
      caseId: opened.id,
      customerId: portal.id,
      customerName: portal.name,
      deviceModel: 'Model X',
    });
    expectError(await t.call(caseEndpoints.devices, { params: { id: opened.id }, token: cast.otherAdmin.token }), 404);
  });

  it('filters open (status 0..3) or Completed (4) cases, in both lists', async () => {
    const tenant = await createTenant(t);
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const portal = await createPortal(t, tenant);
    const byType = new Map<number, number>();
    for (const caseType of [0, 1, 2, 3, 4, 4]) {
      await createDevices(t, portal, [{ status: 0 }]);
      const opened = (await createCase(portal.id, admin.token)).body.data as { id: number };
      if (caseType) await t.call(caseEndpoints.update, { params: { id: opened.id }, token: admin.token, body: { caseType } });
      byType.set(opened.id, caseType);
    }
    const ids = (answer: { body: { data: { list: { id: number }[] } } }) => answer.body.data.list.map((c) => c.id).sort((x, y) => x - y);
    const idsWhere = (keep: (caseType: number) => boolean) =>
      [...byType]
        .filter(([, type]) => keep(type))
        .map(([id]) => id)
        .sort((x, y) => x - y);

    for (const open of [true, false]) {
      const expected = idsWhere((type) => (open ? type < 4 : type === 4));
      const all = await t.call(caseEndpoints.list, { token: admin.token, query: { filter: { open }, range: [0, 1] } });
      expect(all.status).toBe(200);
      expect(all.body.data.count).toBe(expected.length);
      expect(all.body.data.list).toHaveLength(1);
      const ofPortal = await t.call(caseEndpoints.listOfCustomer, {
        params: { id: portal.id },
        token: admin.token,
        query: { filter: { open }, range: [0, 100] },
      });
      expect(ofPortal.body.data.count).toBe(expected.length);
      expect(ids(ofPortal)).toEqual(expected);
      expect(ids(await t.call(caseEndpoints.list, { token: admin.token, query: { filter: { open }, range: [0, 100] } }))).toEqual(expected);
    }
    const openInProgress = await t.call(caseEndpoints.list, { token: admin.token, query: { filter: { open: true, caseType: 2 } } });
    expect(ids(openInProgress)).toEqual(idsWhere((type) => type === 2));
    expectError(await t.call(caseEndpoints.list, { token: admin.token, query: { filter: { open: 'yes' } } }), 400, {
      endsWith: 'open must be true or false',
    });
    expectError(
      await t.call(caseEndpoints.listOfCustomer, { params: { id: portal.id }, token: admin.token, query: { filter: { open: 1 } } }),
      400,
      { endsWith: 'open must be true or false' },
    );
  });
});

describe('case statistics', () => {
  it('sums up open cases by status with zeros included', async () => {
    const tenant = await createTenant(t);
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const types = [0, 2, 2, 4];
    for (const caseType of types) {
      const portal = await createPortal(t, tenant);
      await createDevices(t, portal, [{ status: 0 }]);
      const opened = (await createCase(portal.id, admin.token)).body.data as { id: number };
      if (caseType) await t.call(caseEndpoints.update, { params: { id: opened.id }, token: admin.token, body: { caseType } });
    }
    const sumup = await t.call(caseEndpoints.sumup, { token: admin.token });
    expect(sumup.body.data).toEqual({
      list: [
        { caseType: 0, count: 1 },
        { caseType: 1, count: 0 },
        { caseType: 2, count: 2 },
        { caseType: 3, count: 0 },
      ],
      count: 4,
    });
    expect((await t.call(caseEndpoints.sumup, { token: cast.superAdmin.token })).status).toBe(200);
  });

  it("counts cases completed in the current calendar quarter of the tenant's time zone", async () => {
    const tenant = await createTenant(t, { timezone: 'America/New_York' });
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const utcTenant = await createTenant(t);
    const utcAdmin = await createUser(t, { tenant: utcTenant, roles: ['Admin'] });
    t.clock.set('2026-09-30T23:00:00.000Z'); // 19:00 on Sep 30 in New York: Q3 there and in UTC
    for (const [who, owner] of [
      [admin, tenant],
      [utcAdmin, utcTenant],
    ] as const) {
      const portal = await createPortal(t, owner);
      await createDevices(t, portal, [{ status: 0 }]);
      const opened = (await createCase(portal.id, who.token)).body.data as { id: number };
      await t.call(caseEndpoints.update, { params: { id: opened.id }, token: who.token, body: { caseType: 4 } });
    }
    const count = async (token: string) => (await t.call(caseEndpoints.quarterCompleted, { token })).body.data.count;
    expect(await count(admin.token)).toBe(1);
    expect(await count(utcAdmin.token)).toBe(1);

    t.clock.set('2026-10-01T03:00:00.000Z'); // Q4 in UTC, still Sep 30 (Q3) in New York
    expect(await count(admin.token)).toBe(1);
    expect(await count(utcAdmin.token)).toBe(0);

    t.clock.set('2026-10-01T05:00:00.000Z'); // Oct 1 in New York too
    expect(await count(admin.token)).toBe(0);
    expect((await t.call(caseEndpoints.quarterCompleted, { token: cast.salesman.token })).status).toBe(200);
  });
});

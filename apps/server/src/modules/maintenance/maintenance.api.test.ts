import { MAINT_MSG, maintenanceEndpoints as mw } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCast, createDevices, createPortal, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { expectError } from '../../../test/kits/cases/operations-test-support.ts';

/** The maintenance windows API (docs/maintenance.md): CRUD, list filters, validation, roles, isolation. */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let south: TestPortal;
let otherPortal: TestPortal;
let northDevices: { id: number }[];
let southDevice: { id: number };
let otherDevice: { id: number };
const NOW = new Date('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  cast = await createCast(t);
  north = await createPortal(t, cast.tenant, 'North Maint');
  south = await createPortal(t, cast.tenant, 'South Maint');
  otherPortal = await createPortal(t, cast.other, 'Other Maint');
  northDevices = await createDevices(t, north, [{}, {}, {}]);
  [southDevice] = await createDevices(t, south, [{}]);
  [otherDevice] = await createDevices(t, otherPortal, [{}]);
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, token = cast.admin.token) => t.call(mw.create, { token, body });
const upcoming = (extra: Record<string, unknown> = {}) => ({
  customerId: north.id,
  startsAt: iso(2 * HOUR),
  endsAt: iso(4 * HOUR),
  ...extra,
});

describe('maintenance windows API', () => {
  it('creates, reads, edits and deletes a window', async () => {
    const res = await create(upcoming({ deviceIds: [northDevices[1].id, northDevices[0].id], reason: '  Firmware  ' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id;
    expect(res.body.data).toMatchObject({
      customerId: north.id,
      customerName: 'North Maint',
      deviceIds: [northDevices[0].id, northDevices[1].id].sort((a, b) => a - b),
      startsAt: iso(2 * HOUR),
      endsAt: iso(4 * HOUR),
      recurrence: 'none',
      reason: 'Firmware',
      createdByName: cast.admin.name,
      createdAt: NOW.toISOString(),
      inForce: false,
      nextStartsAt: iso(2 * HOUR),
      nextEndsAt: iso(4 * HOUR),
    });

    const got = await t.call(mw.get, { token: cast.salesman.token, params: { id } });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(res.body.data);

    const patched = await t.call(mw.update, {
      token: cast.pm.token,
      params: { id },
      body: { endsAt: iso(5 * HOUR), reason: 'Longer', deviceIds: [] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ endsAt: iso(5 * HOUR), reason: 'Longer', deviceIds: [], startsAt: iso(2 * HOUR) });

    const removed = await t.call(mw.remove, { token: cast.admin.token, params: { id } });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ data: { ok: true } });
    expectError(await t.call(mw.get, { token: cast.admin.token, params: { id } }), 404);
  });

  it('shows the occurrence in force, else the next one, of recurring windows', async () => {
    // Daily 11:00-13:00 UTC (the tenant's zone is UTC), first occurrence two days ago: in force now.
    const daily = await create(upcoming({ startsAt: iso(-49 * HOUR), endsAt: iso(-47 * HOUR), recurrence: 'daily' }));
    expect(daily.status, JSON.stringify(daily.body)).toBe(201);
    expect(daily.body.data).toMatchObject({ inForce: true, nextStartsAt: iso(-HOUR), nextEndsAt: iso(HOUR) });
    // Weekly, its last occurrence ended an hour ago: the next one is in 7 days.
    const weekly = await create(
      upcoming({ startsAt: iso(-15 * 24 * HOUR - 3 * HOUR), endsAt: iso(-15 * 24 * HOUR - HOUR), recurrence: 'weekly' }),
    );
    expect(weekly.status, JSON.stringify(weekly.body)).toBe(201);
    expect(weekly.body.data).toMatchObject({
      inForce: false,
      nextStartsAt: iso(6 * 24 * HOUR - 3 * HOUR),
      nextEndsAt: iso(6 * 24 * HOUR - HOUR),
    });
    for (const id of [daily.body.data.id, weekly.body.data.id]) await t.call(mw.remove, { token: cast.admin.token, params: { id } });
  });

  it('lists with the filters customerId, deviceId and current, and sorts', async () => {
    const whole = (await create(upcoming({ reason: 'whole north' }))).body.data.id;
    const listed = (await create(upcoming({ deviceIds: [northDevices[2].id], startsAt: iso(HOUR), reason: 'one device' }))).body.data.id;
    const southId = (await create(upcoming({ customerId: south.id, startsAt: iso(3 * HOUR), reason: 'south' }))).body.data.id;
    // A one-off window that has ended since it was created.
    t.clock.set(new Date(NOW.getTime() - 10 * HOUR));
    const past = (await create(upcoming({ startsAt: iso(-9 * HOUR), endsAt: iso(-8 * HOUR), reason: 'past' }))).body.data.id;
    t.clock.set(NOW);
    await create(upcoming({ customerId: otherPortal.id }), cast.otherAdmin.token);

    const ids = async (
      query: { range?: [number, number]; sort?: [string, 'ASC' | 'DESC']; filter?: Record<string, unknown> },
      token = cast.admin.token,
    ) => {
      const res = await t.call(mw.list, { token, query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      if (!query.range) expect(res.body.data.count).toBe(res.body.data.list.length);
      return res.body.data.list.map((w) => w.id);
    };
    expect(await ids({ sort: ['id', 'ASC'] })).toEqual([whole, listed, southId, past]);
    expect(await ids({ filter: { customerId: south.id } })).toEqual([southId]);
    // Device 2 is covered by the whole-portal windows and the one that lists it; device 0 by the whole-portal ones only.
    expect(await ids({ filter: { deviceId: northDevices[2].id }, sort: ['id', 'ASC'] })).toEqual([whole, listed, past]);
    expect(await ids({ filter: { deviceId: northDevices[0].id }, sort: ['id', 'ASC'] })).toEqual([whole, past]);
    expect(await ids({ filter: { current: true }, sort: ['id', 'ASC'] })).toEqual([whole, listed, southId]);
    expect(await ids({ filter: { current: false } })).toEqual([past]);
    expect(await ids({ sort: ['startsAt', 'DESC'] })).toEqual([southId, whole, listed, past]);
    expect(await ids({ sort: ['customerName', 'DESC'], range: [0, 1] })).toEqual([southId]);
    const paged = await t.call(mw.list, { token: cast.admin.token, query: { range: [1, 2], sort: ['id', 'ASC'] } });
    expect(paged.body.data).toMatchObject({ count: 4, list: [{ id: listed }, { id: southId }] });
    // The superAdmin reads every tenant's windows; a Salesman reads its own.
    expect((await ids({}, cast.superAdmin.token)).length).toBe(5);
    expect((await ids({}, cast.salesman.token)).length).toBe(4);
    for (const id of [whole, listed, southId, past]) await t.call(mw.remove, { token: cast.admin.token, params: { id } });
  });

  it('refuses bad windows with the contract texts', async () => {
    expectError(await create(upcoming({ endsAt: iso(2 * HOUR) })), 400, { endsWith: MAINT_MSG.order });
    expectError(await create(upcoming({ endsAt: iso(2 * HOUR + 7 * 24 * HOUR + 1000) })), 400, { endsWith: MAINT_MSG.tooLong });
    expectError(await create(upcoming({ endsAt: iso(27 * HOUR), recurrence: 'daily' })), 400, { endsWith: MAINT_MSG.dailyTooLong });
    expectError(await create(upcoming({ recurrence: 'monthly' })), 400, { endsWith: MAINT_MSG.recurrence });
    expectError(await create(upcoming({ color: 'red' })), 400);
    expectError(await create(upcoming({ startsAt: 'tomorrow' })), 400, { endsWith: MAINT_MSG.instant });
    expectError(await create(upcoming({ startsAt: iso(-3 * HOUR), endsAt: iso(-HOUR) })), 400, MAINT_MSG.ended);
    expectError(await create(upcoming({ startsAt: iso(-3 * HOUR), endsAt: NOW.toISOString() })), 400, MAINT_MSG.ended);
    // Devices: another portal's, another tenant's, unknown.
    expectError(await create(upcoming({ deviceIds: [southDevice.id] })), 400, MAINT_MSG.unknownDevice);
    expectError(await create(upcoming({ deviceIds: [northDevices[0].id, otherDevice.id] })), 400, MAINT_MSG.unknownDevice);
    expectError(await create(upcoming({ deviceIds: [2_000_000_000] })), 400, MAINT_MSG.unknownDevice);
    // Another tenant's portal is not found, as a missing one.
    expectError(await create(upcoming({ customerId: otherPortal.id })), 404);
    expectError(await create(upcoming({ customerId: 2_000_000_000 })), 404);
  });

  it('checks an edit on the merged window', async () => {
    const id = (await create(upcoming())).body.data.id;
    const patch = (body: Record<string, unknown>) => t.call(mw.update, { token: cast.admin.token, params: { id }, body });
    expectError(await patch({ startsAt: iso(4 * HOUR) }), 400, MAINT_MSG.order);
    expectError(await patch({ endsAt: iso(9 * 24 * HOUR) }), 400, MAINT_MSG.tooLong);
    expectError(await patch({ endsAt: iso(30 * HOUR), recurrence: 'daily' }), 400, MAINT_MSG.dailyTooLong);
    expectError(await patch({ startsAt: iso(-3 * HOUR), endsAt: iso(-HOUR) }), 400, MAINT_MSG.ended);
    expectError(await patch({ deviceIds: [otherDevice.id] }), 400, MAINT_MSG.unknownDevice);
    expectError(await patch({ customerId: south.id }), 400);
    // Recurring, an ended first occurrence is fine: later ones come.
    const ok = await patch({ startsAt: iso(-3 * HOUR), endsAt: iso(-HOUR), recurrence: 'daily' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ recurrence: 'daily', inForce: false, nextStartsAt: iso(21 * HOUR) });
    await t.call(mw.remove, { token: cast.admin.token, params: { id } });
  });

  it('lets Admins and Project Managers write, every tenant role read, and hides other tenants', async () => {
    expectError(await create(upcoming(), cast.salesman.token), 403);
    expectError(await create(upcoming(), cast.superAdmin.token), 403);
    const id = (await create(upcoming(), cast.pm.token)).body.data.id;
    expectError(await t.call(mw.update, { token: cast.salesman.token, params: { id }, body: { reason: 'x' } }), 403);
    expectError(await t.call(mw.remove, { token: cast.salesman.token, params: { id } }), 403);
    expect((await t.call(mw.get, { token: cast.superAdmin.token, params: { id } })).status).toBe(200);
    // Another tenant's window answers as a missing one.
    expectError(await t.call(mw.get, { token: cast.otherAdmin.token, params: { id } }), 404);
    expectError(await t.call(mw.update, { token: cast.otherAdmin.token, params: { id }, body: { reason: 'x' } }), 404);
    expectError(await t.call(mw.remove, { token: cast.otherAdmin.token, params: { id } }), 404);
    expect((await t.call(mw.get, { token: cast.admin.token, params: { id } })).body.data.reason).toBe('');
    await t.call(mw.remove, { token: cast.admin.token, params: { id } });
  });
});

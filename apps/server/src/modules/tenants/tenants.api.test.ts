import { LIMITS, MSG, TENANT_MSG, tenantsEndpoints } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants as tenantsTable, users } from '../../db/schema/index.ts';
import { createCast, createPortal, createTenant, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
});
afterAll(() => t.close());

const form = (over: Record<string, unknown> = {}) => ({
  name: 'Acme Security',
  contactName: 'Jane Doe',
  email: 'ops@acme.test',
  phone: '555-0199',
  address: '1 Harbour Road',
  goalScore: 97,
  ...over,
});

describe('GET /tenants (superAdmin list)', () => {
  it('lists live tenants with count, sort, name filter and remainingCount', async () => {
    const a = await createTenant(t, { name: 'Zulu Alarm Co', freeCount: 3 });
    await createPortal(t, a);
    const gone = await createTenant(t, { name: 'Zulu Gone Ltd' });
    await t.database.db.update(tenantsTable).set({ deletedAt: t.clock.now() }).where(eq(tenantsTable.id, gone.id));

    const res = await t.call(tenantsEndpoints.list, {
      token: cast.superAdmin.token,
      query: { filter: { q: 'zulu' }, sort: ['name', 'DESC'], range: [0, 10] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(1);
    const [row] = res.body.data.list;
    expect(row).toMatchObject({
      id: a.id,
      name: 'Zulu Alarm Co',
      freeCount: 3,
      remainingCount: 2,
      goalScore: LIMITS.goalScoreDefault,
      heartbeatTimeout: 10,
      timezone: 'UTC',
      subscriptionStatus: 'active',
    });

    // LIKE wildcards in q are plain characters.
    const wildcard = await t.call(tenantsEndpoints.list, { token: cast.superAdmin.token, query: { filter: { q: '%' } } });
    expect(wildcard.body.data.count).toBe(0);

    const paged = await t.call(tenantsEndpoints.list, {
      token: cast.superAdmin.token,
      query: { sort: ['createdAt', 'ASC'], range: [0, 1] },
    });
    expect(paged.body.data.list).toHaveLength(1);
    expect(paged.body.data.count).toBeGreaterThanOrEqual(3);
  });

  it('rejects unknown sort fields and filter keys with 400', async () => {
    const bad = await t.call(tenantsEndpoints.list, { token: cast.superAdmin.token, query: { sort: ['freeTier', 'ASC'] } });
    expect(bad.status).toBe(400);
    const badFilter = await t.call(tenantsEndpoints.list, { token: cast.superAdmin.token, query: { filter: { nope: 1 } } });
    expect(badFilter.status).toBe(400);
  });

  it('is refused to every tenant role and to a user with no tenant', async () => {
    const noTenant = await createUser(t, { tenant: null, roles: [] });
    for (const u of [cast.admin, cast.pm, cast.salesman, noTenant]) {
      expect((await t.call(tenantsEndpoints.list, { token: u.token })).status).toBe(403);
      expect((await t.call(tenantsEndpoints.all, { token: u.token })).status).toBe(403);
    }
    expect((await t.call(tenantsEndpoints.list)).status).toBe(401);
  });

  it('GET /tenants/all gives id and name of every live tenant', async () => {
    const res = await t.call(tenantsEndpoints.all, { token: cast.superAdmin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(
      expect.arrayContaining([
        { id: cast.tenant.id, name: cast.tenant.name },
        { id: cast.other.id, name: cast.other.name },
      ]),
    );
    expect(res.body.data.every((o) => Object.keys(o).sort().join() === 'id,name')).toBe(true);
  });
});

describe('POST /tenants', () => {
  it('superAdmin creates a tenant with commercial terms', async () => {
    const res = await t.call(tenantsEndpoints.create, {
      token: cast.superAdmin.token,
      body: form({ freeCount: 2, freeTier: true, discount: 10, timezone: 'Europe/Berlin', heartbeatTimeout: 30, brand: 'Acme' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Acme Security',
      freeCount: 2,
      remainingCount: 2,
      freeTier: true,
      discount: 10,
      goalScore: 97,
      timezone: 'Europe/Berlin',
      heartbeatTimeout: 30,
      brand: 'Acme',
      subscriptionStatus: 'none',
    });
    expect(res.body.data.accessToken).toBeUndefined();
  });

  it.each([
    ['name', MSG.tenantName],
    ['contactName', MSG.contactName],
    ['phone', MSG.tenantPhone],
    ['email', MSG.tenantEmail],
    ['address', MSG.address],
    ['goalScore', MSG.goalScore],
  ])('answers the product message when %s is missing, blank or of the wrong type', async (field, msg) => {
    const missing = form();
    delete (missing as Record<string, unknown>)[field];
    for (const body of [missing, form({ [field]: field === 'goalScore' ? '' : '   ' }), form({ [field]: null })]) {
      const res = await t.call(tenantsEndpoints.create, { token: cast.superAdmin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error?.msg).toBe(msg);
    }
  });

  it('checks goalScore range, heartbeatTimeout, time zone and unknown keys', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ goalScore: 101 }, `body.goalScore: ${TENANT_MSG.goalScoreRange}`],
      [{ goalScore: -1 }, `body.goalScore: ${TENANT_MSG.goalScoreRange}`],
      [{ heartbeatTimeout: 0 }, `body.heartbeatTimeout: ${TENANT_MSG.heartbeatTimeout}`],
      [{ heartbeatTimeout: 10081 }, `body.heartbeatTimeout: ${TENANT_MSG.heartbeatTimeout}`],
      [{ heartbeatTimeout: 1.5 }, `body.heartbeatTimeout: ${TENANT_MSG.heartbeatTimeout}`],
      [{ timezone: 'Mars/Olympus' }, `body.timezone: ${TENANT_MSG.timezone}`],
    ];
    for (const [over, msg] of cases) {
      const res = await t.call(tenantsEndpoints.create, { token: cast.superAdmin.token, body: form(over) });
      expect([res.status, res.body.error?.msg]).toEqual([400, msg]);
    }
    const extra = await t.call(tenantsEndpoints.create, { token: cast.superAdmin.token, body: form({ id: 5 }) });
    expect(extra.status).toBe(400);
  });

  it('a signed-in user with no tenant and no roles creates their tenant, becomes its Admin and gets tokens carrying it', async () => {
    const person = await createUser(t, { tenant: null, roles: [] });
    const res = await t.call(tenantsEndpoints.create, { token: person.token, body: form({ name: 'Own Co' }) });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({ name: 'Own Co', freeCount: 0, freeTier: false });
    const claims = await t.deps.accessTokens.verify(created.accessToken!);
    expect(claims).toMatchObject({ userId: person.id, tenantId: created.id, tenantName: 'Own Co', roles: ['Admin'] });
    expect(created.refreshToken).toBeTruthy();

    // The new token works as the tenant's Admin; a second tenant with the old token is refused.
    const own = await t.call(tenantsEndpoints.get, { token: created.accessToken!, params: { id: created.id } });
    expect(own.status).toBe(200);
    const again = await t.call(tenantsEndpoints.create, { token: person.token, body: form({ name: 'Second Co' }) });
    expect([again.status, again.body.error?.msg]).toEqual([403, TENANT_MSG.alreadyInTenant]);
  });

  it('a user with no tenant cannot set commercial terms', async () => {
    const person = await createUser(t, { tenant: null, roles: [] });
    const res = await t.call(tenantsEndpoints.create, { token: person.token, body: form({ freeTier: true }) });
    expect([res.status, res.body.error?.msg]).toEqual([403, TENANT_MSG.platformFieldsOnly]);
    const [row] = await t.database.db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, person.id));
    expect(row?.tenantId).toBeNull();
  });

  it('is refused to Admin, Project Manager and Salesman', async () => {
    for (const u of [cast.admin, cast.pm, cast.salesman]) {
      const res = await t.call(tenantsEndpoints.create, { token: u.token, body: form() });
      expect(res.status).toBe(403);
    }
  });
});

describe('GET and PATCH /tenants/:id', () => {
  it('superAdmin reads and changes any tenant, including commercial terms', async () => {
    const get = await t.call(tenantsEndpoints.get, { token: cast.superAdmin.token, params: { id: cast.other.id } });
    expect(get.body.data).toMatchObject({ id: cast.other.id, name: cast.other.name });
    const res = await t.call(tenantsEndpoints.update, {
      token: cast.superAdmin.token,
      params: { id: cast.other.id },
      body: { freeCount: 5, discount: 20, freeTier: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ freeCount: 5, remainingCount: 5, discount: 20, freeTier: true });
  });

  it('an Admin reads and changes its own tenant info', async () => {
    const get = await t.call(tenantsEndpoints.get, { token: cast.admin.token, params: { id: cast.tenant.id } });
    expect(get.status).toBe(200);
    const body = {
      name: 'Renamed Co',
      contactName: 'Ann',
      brand: 'RB',
      email: 'x@y.test',
      phone: '1',
      address: '2 St',
      goalScore: 90.5,
      heartbeatTimeout: 15,
      timezone: 'America/New_York',
    };
    const res = await t.call(tenantsEndpoints.update, { token: cast.admin.token, params: { id: cast.tenant.id }, body });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject(body);
    const again = await t.call(tenantsEndpoints.get, { token: cast.admin.token, params: { id: cast.tenant.id } });
    expect(again.body.data).toMatchObject(body);
  });

  it('an Admin may not change commercial terms (403, nothing changed)', async () => {
    for (const body of [{ freeCount: 99 }, { freeTier: true }, { discount: 50, name: 'Sneaky' }]) {
      const res = await t.call(tenantsEndpoints.update, { token: cast.admin.token, params: { id: cast.tenant.id }, body });
      expect([res.status, res.body.error?.msg]).toEqual([403, TENANT_MSG.platformFieldsOnly]);
    }
    const after = await t.call(tenantsEndpoints.get, { token: cast.admin.token, params: { id: cast.tenant.id } });
    expect(after.body.data).toMatchObject({ freeCount: 0, freeTier: false, discount: 0 });
    expect(after.body.data.name).not.toBe('Sneaky');
  });

  it('answers the form messages for blank fields on PATCH', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, MSG.tenantName],
      [{ contactName: ' ' }, MSG.contactName],
      [{ phone: '' }, MSG.tenantPhone],
      [{ email: '' }, MSG.tenantEmail],
      [{ address: null }, MSG.address],
      [{ goalScore: 'high' }, MSG.goalScore],
      [{ goalScore: 100.1 }, `body.goalScore: ${TENANT_MSG.goalScoreRange}`],
      [{ timezone: 'Nowhere/City' }, `body.timezone: ${TENANT_MSG.timezone}`],
    ];
    for (const [body, msg] of cases) {
      const res = await t.call(tenantsEndpoints.update, { token: cast.admin.token, params: { id: cast.tenant.id }, body });
      expect([res.status, res.body.error?.msg]).toEqual([400, msg]);
    }
  });

  it("another tenant's id, or an unknown one, answers 404 to an Admin", async () => {
    for (const id of [cast.other.id, 999999]) {
      expect((await t.call(tenantsEndpoints.get, { token: cast.admin.token, params: { id } })).status).toBe(404);
      expect((await t.call(tenantsEndpoints.update, { token: cast.admin.token, params: { id }, body: { name: 'Hijack' } })).status).toBe(
        404,
      );
    }
    expect((await t.call(tenantsEndpoints.get, { token: cast.superAdmin.token, params: { id: 999999 } })).status).toBe(404);
    const other = await t.call(tenantsEndpoints.get, { token: cast.otherAdmin.token, params: { id: cast.other.id } });
    expect(other.body.data.name).not.toBe('Hijack');
  });

  it('is refused to Project Manager, Salesman and a user with no tenant', async () => {
    const noTenant = await createUser(t, { tenant: null, roles: [] });
    for (const u of [cast.pm, cast.salesman, noTenant]) {
      expect((await t.call(tenantsEndpoints.get, { token: u.token, params: { id: cast.tenant.id } })).status).toBe(403);
      expect((await t.call(tenantsEndpoints.update, { token: u.token, params: { id: cast.tenant.id }, body: { name: 'x' } })).status).toBe(
        403,
      );
    }
  });
});

import { DEVICE_STATUS, alertEndpoints, caseEndpoints, deviceEndpoints, type Endpoint } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from './client.ts';
import { createCast, createPortal, type TestPortal } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { reported, sendWebhook } from '../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * Later list pages (docs/performance-choices.md "Lists, every page different"): read from the nearer end,
 * with their kept total in one statement, or found through the id marks (db/kept-counts.ts), every
 * page must equal that slice of the whole list, with the whole list's count, for every order and
 * filter, a deleted portal, rows added and removed, and both tenants. (The kept counts themselves:
 * kept-counts.api.test.ts.)
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let south: TestPortal;
let otherPortal: TestPortal;
const START = new Date('2026-11-22T06:00:00.000Z');
const MIN = 60_000;
const at = (minutes: number) => new Date(START.getTime() + minutes * MIN);

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(at(0));
  cast = await createCast(t);
  north = await createPortal(t, cast.tenant, 'North');
  south = await createPortal(t, cast.tenant, 'South');
  otherPortal = await createPortal(t, cast.other, 'Elsewhere');
  // Devices in both portals of the tenant (offline ones in each, for the case and the alerts) and one
  // of the other tenant's.
  await sendWebhook(
    t,
    north,
    reported([
      { externalId: 'cam-1', deviceType: 0, status: 1, at: at(0) },
      { externalId: 'cam-2', deviceType: 0, status: 0, at: at(0) },
      { externalId: 'door', deviceType: 2, status: 0, at: at(0) },
    ]),
  );
  await sendWebhook(
    t,
    south,
    reported([
      { externalId: 'bell', deviceType: 1, status: 1, at: at(0) },
      { externalId: 'smoke', deviceType: 4, status: 0, at: at(0) },
    ]),
  );
  await sendWebhook(t, otherPortal, reported([{ externalId: 'cam-x', deviceType: 0, status: 1, at: at(0) }]));
  // A case of North's offline devices and alerts in both portals.
  const created = await t.call(caseEndpoints.create, { token: cast.admin.token, params: { id: north.id }, body: {} });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  for (let i = 0; i < 3; i++) {
    const body = { customerId: i % 2 ? south.id : north.id, alertType: 0 };
    const opened = await t.call(alertEndpoints.create, { token: cast.admin.token, body });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  }
});
afterAll(() => t.close());

describe('pages read from the end', () => {
  it('answer the last pages exactly as the whole list in order does, in every order', async () => {
    // Within the access token's lifetime (the clock started at 0).
    t.clock.set(at(14.2));
    const many = Array.from({ length: 23 }, (_, i) => ({
      externalId: `bulk-${i}`,
      name: `Bulk ${String(i % 7)}`,
      deviceType: i % 5,
      status: i % 3 ? DEVICE_STATUS.online : DEVICE_STATUS.offline,
      at: at(14.2),
    }));
    await sendWebhook(t, north, reported(many));
    for (let i = 0; i < 12; i++) {
      t.clock.set(at(14.3 + i / 100));
      await t.call(alertEndpoints.create, { token: cast.admin.token, body: { customerId: north.id, alertType: 0 } });
    }
    const sorts: [Endpoint, unknown[] | undefined][] = [
      [deviceEndpoints.list, undefined],
      [deviceEndpoints.list, ['name', 'DESC']],
      [deviceEndpoints.list, ['lastOnline', 'ASC']],
      [deviceEndpoints.list, ['deviceType', 'DESC']],
      [alertEndpoints.list, undefined],
      [alertEndpoints.list, ['createdAt', 'ASC']],
      [alertEndpoints.list, ['offlineCount', 'DESC']],
      [caseEndpoints.list, undefined],
    ];
    for (const [endpoint, sort] of sorts) {
      const query = (range: [number, number]) => ({ range, ...(sort ? { sort } : {}) });
      const res = await t.call(endpoint as typeof deviceEndpoints.list, { token: cast.admin.token, query: query([0, 1000]) as never });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const whole = res.body.data;
      const ids = whole.list.map((r) => r.id);
      expect(ids.length).toBe(whole.count);
      for (const from of [whole.count - 10, whole.count - 3, Math.floor(whole.count / 2), whole.count - 1]) {
        if (from < 0) continue;
        const page = (await t.call(endpoint as typeof deviceEndpoints.list, { token: cast.admin.token, query: query([from, 10]) as never }))
          .body.data;
        expect(
          page.list.map((r) => r.id),
          `${endpoint.path} ${JSON.stringify(sort)} from ${from}`,
        ).toEqual(ids.slice(from, from + 10));
      }
    }
  });
});

describe('later pages asked with their total in one statement', () => {
  /** Every page of `size` rows from offset 1 on equals that slice of the whole list, with the whole list's count. */
  async function expectEveryPage(endpoint: Endpoint, token: string, extra: Record<string, unknown>, size: number) {
    const ask = async (range: [number, number]) => {
      const res = await t.call(endpoint as typeof deviceEndpoints.list, { token, query: { range, ...extra } as never });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const whole = await ask([0, 1000]);
    const ids = whole.list.map((r) => r.id);
    expect(ids.length).toBe(whole.count);
    for (let from = 1; from <= whole.count + 1; from++) {
      const page = await ask([from, size]);
      expect(
        page.list.map((r) => r.id),
        `${endpoint.path} ${JSON.stringify(extra)} [${from}, ${size}]`,
      ).toEqual(ids.slice(from, from + size));
      expect(page.count).toBe(whole.count);
    }
    return ids;
  }

  const lists: [Endpoint, Record<string, unknown>][] = [
    [deviceEndpoints.list, {}],
    [deviceEndpoints.list, { sort: ['lastOnline', 'DESC'] }],
    [deviceEndpoints.list, { filter: { status: DEVICE_STATUS.online } }],
    [deviceEndpoints.list, { filter: { customerId: 0, deviceType: 1 } }],
    [alertEndpoints.list, {}],
    [alertEndpoints.list, { sort: ['createdAt', 'ASC'] }],
    [alertEndpoints.list, { filter: { alertType: 0 } }],
    [caseEndpoints.list, {}],
    [caseEndpoints.list, { filter: { open: true } }],
  ];
  const withPortal = (extra: Record<string, unknown>) =>
    JSON.parse(JSON.stringify(extra).replace('"customerId":0', `"customerId":${north.id}`)) as Record<string, unknown>;

  it('answer every page from either end as the whole list does, for a tenant and for the superAdmin', async () => {
    t.clock.set(at(14.5));
    for (const [endpoint, extra] of lists) {
      for (const size of [10, 3]) await expectEveryPage(endpoint, cast.admin.token, withPortal(extra), size);
      await expectEveryPage(endpoint, cast.superAdmin.token, withPortal(extra), 7);
    }
  });

  it('leave out a deleted portal (asked in two rounds then) and follow rows added and removed', async () => {
    t.clock.set(at(14.6));
    const before = await expectEveryPage(alertEndpoints.list, cast.admin.token, {}, 10);
    await t.database.exec(`update portals set deleted_at = now() where id = ${south.id}`);
    try {
      for (const [endpoint, extra] of lists) {
        const ids = await expectEveryPage(endpoint, cast.admin.token, withPortal(extra), 10);
        const rows = (
          await t.call(endpoint as typeof deviceEndpoints.list, {
            token: cast.admin.token,
            query: { range: [0, 1000], ...withPortal(extra) } as never,
          })
        ).body.data.list as { customerId: number }[];
        expect(rows.every((r) => r.customerId !== south.id)).toBe(true);
        expect(ids.length).toBe(rows.length);
      }
    } finally {
      await t.database.exec(`update portals set deleted_at = null where id = ${south.id}`);
    }
    // A new alert is counted and shifts every later page by one; removing it shifts them back.
    await t.database.exec(
      `insert into alerts (tenant_id, portal_id, alert_type, offline_count, created_at, updated_at)
       values (${cast.tenant.id}, ${north.id}, 1, 0, now(), now())`,
    );
    // Pages asked before anything read the new total: the end is chosen from the total last seen,
    // the rows still follow the new one.
    const ask = async (from: number) =>
      (await t.call(alertEndpoints.list, { token: cast.admin.token, query: { range: [from, 10] } })).body.data.list.map((r) => r.id);
    const stale = [await ask(before.length - 2), await ask(before.length), await ask(1)];
    const added = await expectEveryPage(alertEndpoints.list, cast.admin.token, {}, 10);
    expect(stale).toEqual([added.slice(before.length - 2), added.slice(before.length), added.slice(1, 11)]);
    expect(added.slice(1)).toEqual(before);
    await t.database.exec(`delete from alerts where tenant_id = ${cast.tenant.id} and id = ${added[0]}`);
    expect(await ask(added.length - 3)).toEqual(added.slice(added.length - 2));
    expect(await expectEveryPage(alertEndpoints.list, cast.admin.token, {}, 10)).toEqual(added.slice(1));
    // The other tenant's list holds none of these rows.
    const others = await expectEveryPage(alertEndpoints.list, cast.otherAdmin.token, {}, 10);
    expect(others.filter((id) => added.includes(id))).toEqual([]);
  });
});

describe('id marks', () => {
  /** The marks (non-zero rows) equal a fresh count of the table's rows per tenant and block of 1,024 ids. */
  async function expectMarksFresh(table: 'cases' | 'alerts') {
    const fresh = await queryRows<{ tenant_id: number; bucket: number; total: number }>(
      t.database.db,
      sql.raw(`select tenant_id, id >> 10 as bucket, count(*)::int as total from ${table} group by 1, 2 order by 1, 2`),
    );
    const kept = await queryRows<{ tenant_id: number; bucket: number; total: number }>(
      t.database.db,
      sql.raw(`select tenant_id, bucket, total from ${table === 'cases' ? 'case' : 'alert'}_id_marks where total <> 0 order by 1, 2`),
    );
    expect(kept).toEqual(fresh);
  }

  it('follow inserts and deletes over many blocks, and find every later page through them', async () => {
    t.clock.set(at(14.7));
    // Ids spread over several blocks, both tenants' rows in the same blocks.
    const ids = [1500, 1501, 2047, 2048, 3000, 3001, 3002, 5000, 9000, 9001, 9002, 9003, 9004];
    // (id, tenant, portal, type, offline count, created, updated): the columns both tables share here.
    const values = (tenantId: number, portalId: number, shift: number) =>
      ids.map((id) => `(${id + shift}, ${tenantId}, ${portalId}, 0, 0, now(), now())`).join(', ');
    await t.database.exec(
      `insert into alerts (id, tenant_id, portal_id, alert_type, offline_count, created_at, updated_at)
         values ${values(cast.tenant.id, north.id, 0)}, ${values(cast.other.id, otherPortal.id, 7)};
       insert into cases (id, tenant_id, portal_id, case_type, offline_count, created_at, updated_at)
         values ${values(cast.tenant.id, south.id, 0)}, ${values(cast.other.id, otherPortal.id, 7)}`,
    );
    await expectMarksFresh('alerts');
    await expectMarksFresh('cases');
    for (const endpoint of [alertEndpoints.list, caseEndpoints.list] as Endpoint[]) {
      for (const user of [cast.admin, cast.otherAdmin]) {
        const ask = async (range: [number, number]) =>
          (await t.call(endpoint as typeof alertEndpoints.list, { token: user.token, query: { range } })).body.data;
        const whole = await ask([0, 1000]);
        const all = whole.list.map((r) => r.id);
        expect(all.length).toBe(whole.count);
        for (let from = 1; from <= whole.count; from++) {
          const page = await ask([from, 4]);
          expect(
            page.list.map((r) => r.id),
            `${endpoint.path} [${from}, 4]`,
          ).toEqual(all.slice(from, from + 4));
          expect(page.count).toBe(whole.count);
        }
      }
    }
    await t.database.exec(`delete from alerts where id in (2047, 3001, 9007); delete from cases where id in (1500, 9000, 9011)`);
    await expectMarksFresh('alerts');
    await expectMarksFresh('cases');
    const whole = (await t.call(alertEndpoints.list, { token: cast.admin.token, query: { range: [0, 1000] } })).body.data;
    for (const from of [1, 5, whole.count - 3]) {
      const page = (await t.call(alertEndpoints.list, { token: cast.admin.token, query: { range: [from, 4] } })).body.data;
      expect(page.list.map((r) => r.id)).toEqual(whole.list.slice(from, from + 4).map((r) => r.id));
    }
  });
});

import { caseEndpoints, commentEndpoints, COMMENT_MSG, MSG } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { createCast, createDevices, createPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { expectError } from '../../../test/kits/cases/operations-test-support.ts';
import { unsafeMarkupProblems, xssPayloads } from '../../../test/kits/comments/xss-payloads.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let caseId: number;
let foreignCaseId: number;

async function openCaseFor(tenant: typeof cast.tenant, token: string): Promise<number> {
  const portal = await createPortal(t, tenant);
  await createDevices(t, portal, [{ status: 0 }]);
  return ((await t.call(caseEndpoints.create, { params: { id: portal.id }, token })).body.data as { id: number }).id;
}

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
  caseId = await openCaseFor(cast.tenant, cast.admin.token);
  foreignCaseId = await openCaseFor(cast.other, cast.otherAdmin.token);
});
afterAll(() => t.close());

const post = (user: { id: number; token: string }, content: unknown, onCase = caseId, asUserId = user.id) =>
  t.call(commentEndpoints.create, { params: { userId: asUserId, caseId: onCase }, token: user.token, body: { content } });

describe('POST /users/:userId/case-stats/:caseId/comments', () => {
  it('stores sanitized content as the signed-in author', async () => {
    const res = await post(
      cast.salesman,
      '<p>Replaced the <strong>PSU</strong> <a href="https://vendor.example/rma">RMA</a><img src=x onerror=alert(1)></p>',
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      userId: cast.salesman.id,
      userName: cast.salesman.name,
      caseId,
      content:
        '<p>Replaced the <strong>PSU</strong> <a href="https://vendor.example/rma" rel="noopener noreferrer" target="_blank">RMA</a></p>',
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    const spoofed = await t.call(commentEndpoints.create, {
      params: { userId: cast.pm.id, caseId },
      token: cast.pm.token,
      body: { content: '<p>ok</p>', userId: cast.admin.id, userName: 'Someone Else', caseId: foreignCaseId },
    });
    expect(spoofed.status).toBe(201);
    expect(spoofed.body.data).toMatchObject({ userId: cast.pm.id, userName: cast.pm.name, caseId });
  });

  it('refuses empty and oversized content', async () => {
    for (const blank of ['', '   ', '<p></p>', '<p><br></p>', '<p>&nbsp;</p>', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>'])
      expectError(await post(cast.admin, blank), 400, COMMENT_MSG.empty);
    expectError(await post(cast.admin, undefined), 400, { endsWith: COMMENT_MSG.empty });
    expectError(await post(cast.admin, 42), 400, { endsWith: COMMENT_MSG.empty });
    expectError(await post(cast.admin, `<p>${'x'.repeat(20_000)}</p>`), 400, { endsWith: COMMENT_MSG.tooLong });
    expectError(
      await t.call(commentEndpoints.create, {
        params: { userId: cast.admin.id, caseId },
        token: cast.admin.token,
        body: { content: 'x', extra: 1 },
      }),
      400,
    );
  });

  it('enforces the author in the path, roles and tenant isolation', async () => {
    expectError(await post(cast.pm, '<p>as someone else</p>', caseId, cast.admin.id), 403, COMMENT_MSG.otherUser);
    expectError(await post(cast.superAdmin, '<p>platform</p>'), 403, MSG.tenantOnly);
    expectError(await post(cast.otherAdmin, '<p>foreign</p>'), 404);
    expectError(await post(cast.admin, '<p>foreign case</p>', foreignCaseId), 404);
    expectError(await post(cast.admin, '<p>nothing</p>', 999_999), 404);
    for (const user of [cast.admin, cast.pm, cast.salesman]) expect((await post(user, `<p>by ${user.name}</p>`)).status).toBe(201);
  });

  it(`stores nothing executable from ${xssPayloads().length} XSS payloads`, async () => {
    const xssCase = await openCaseFor(cast.tenant, cast.admin.token);
    let stored = 0;
    for (const payload of xssPayloads()) {
      const res = await post(cast.pm, `<p>note</p>${payload}`, xssCase);
      expect(res.status, payload).toBe(201);
      expect(unsafeMarkupProblems(res.body.data.content), payload).toEqual([]);
      stored++;
    }
    const rows = await queryRows<{ content: string }>(t.database.db, sql`select content from comments where case_id = ${xssCase}`);
    expect(rows).toHaveLength(stored);
    expect(stored).toBeGreaterThanOrEqual(100);
    for (const row of rows) {
      expect(unsafeMarkupProblems(row.content), row.content).toEqual([]);
      expect(row.content).not.toMatch(/<script/i);
      expect(row.content).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
      expect(row.content).not.toMatch(/href\s*=\s*"\s*(javascript|vbscript|data):/i);
    }
    const own = (await post(cast.salesman, '<p>to edit</p>', xssCase)).body.data;
    const edited = await t.call(commentEndpoints.update, {
      params: { id: own.id },
      token: cast.salesman.token,
      body: { content: '<a href="javascript:alert(1)" onclick="x">e</a>' },
    });
    expect(edited.status).toBe(200);
    expect(unsafeMarkupProblems(edited.body.data.content)).toEqual([]);
  });
});

describe('reading, editing and deleting comments', () => {
  it('lists a case’s comments newest first with filters; other tenants get 404', async () => {
    const listCase = await openCaseFor(cast.tenant, cast.admin.token);
    for (const [user, text] of [
      [cast.admin, 'first'],
      [cast.pm, 'second'],
      [cast.admin, 'third'],
    ] as const) {
      t.clock.advance(60_000);
      await post(user, `<p>${text}</p>`, listCase);
    }
    const list = await t.call(commentEndpoints.list, { params: { caseId: listCase }, token: cast.salesman.token });
    expect(list.body.data.count).toBe(3);
    expect(list.body.data.list.map((c) => c.content)).toEqual(['<p>third</p>', '<p>second</p>', '<p>first</p>']);
    const mine = await t.call(commentEndpoints.list, {
      params: { caseId: listCase },
      token: cast.admin.token,
      query: { filter: { userId: cast.admin.id }, range: [0, 1] },
    });
    expect(mine.body.data).toMatchObject({ count: 2, list: [{ content: '<p>third</p>' }] });
    const oldest = await t.call(commentEndpoints.list, {
      params: { caseId: listCase },
      token: cast.admin.token,
      query: { sort: ['createdAt', 'ASC'] },
    });
    expect(oldest.body.data.list[0].content).toBe('<p>first</p>');
    expect((await t.call(commentEndpoints.list, { params: { caseId: listCase }, token: cast.superAdmin.token })).body.data.count).toBe(3);
    expectError(await t.call(commentEndpoints.list, { params: { caseId: listCase }, token: cast.otherAdmin.token }), 404);
    expectError(
      await t.call(commentEndpoints.list, { params: { caseId: listCase }, token: cast.admin.token, query: { filter: { content: 'x' } } }),
      400,
    );
  });

  it('lets only the author edit', async () => {
    const created = (await post(cast.pm, '<p>draft</p>')).body.data;
    t.clock.advance(5_000);
    const edited = await t.call(commentEndpoints.update, {
      params: { id: created.id },
      token: cast.pm.token,
      body: { content: '<p>final <em>text</em></p>' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      id: created.id,
      content: '<p>final <em>text</em></p>',
      createdAt: created.createdAt,
      updatedAt: t.clock.now().toISOString(),
    });
    expectError(
      await t.call(commentEndpoints.update, {
        params: { id: created.id },
        token: cast.admin.token,
        body: { content: '<p>admin edit</p>' },
      }),
      403,
      COMMENT_MSG.notAuthor,
    );
    expectError(
      await t.call(commentEndpoints.update, { params: { id: created.id }, token: cast.superAdmin.token, body: { content: '<p>x</p>' } }),
      403,
    );
    expectError(
      await t.call(commentEndpoints.update, { params: { id: created.id }, token: cast.otherAdmin.token, body: { content: '<p>x</p>' } }),
      404,
    );
    expectError(
      await t.call(commentEndpoints.update, { params: { id: created.id }, token: cast.pm.token, body: { content: '<p><br></p>' } }),
      400,
      COMMENT_MSG.empty,
    );
    expectError(
      await t.call(commentEndpoints.update, { params: { id: 999_999 }, token: cast.pm.token, body: { content: '<p>x</p>' } }),
      404,
    );
  });

  it('lets the author or a tenant Admin delete', async () => {
    const bySalesman = (await post(cast.salesman, '<p>mine</p>')).body.data;
    const byPm = (await post(cast.pm, '<p>pm</p>')).body.data;
    const byAdmin = (await post(cast.admin, '<p>admin</p>')).body.data;
    expectError(
      await t.call(commentEndpoints.remove, { params: { id: bySalesman.id }, token: cast.pm.token }),
      403,
      COMMENT_MSG.notAuthorOrAdmin,
    );
    expectError(await t.call(commentEndpoints.remove, { params: { id: byAdmin.id }, token: cast.salesman.token }), 403);
    expectError(await t.call(commentEndpoints.remove, { params: { id: bySalesman.id }, token: cast.superAdmin.token }), 403);
    expectError(await t.call(commentEndpoints.remove, { params: { id: bySalesman.id }, token: cast.otherAdmin.token }), 404);
    expect((await t.call(commentEndpoints.remove, { params: { id: bySalesman.id }, token: cast.salesman.token })).body).toEqual({
      data: { ok: true },
    });
    expect((await t.call(commentEndpoints.remove, { params: { id: byPm.id }, token: cast.admin.token })).status).toBe(200);
    expectError(await t.call(commentEndpoints.remove, { params: { id: byPm.id }, token: cast.admin.token }), 404);
    const left = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from comments where id in (${bySalesman.id}, ${byPm.id}, ${byAdmin.id})`,
    );
    expect(left.map((r) => r.id)).toEqual([byAdmin.id]);
  });
});

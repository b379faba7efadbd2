import { WEBHOOK_MSG, portalEndpoints } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { createPortal, createTenant, createUser, type TestPortal } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { newPortalEachTest } from '../../../test/kits/webhooks/portal-each-test.ts';
import { countRows, deviceState, periodsOf, reported, sendWebhook } from '../../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * Ingestion under concurrency: messages in flight together are applied in shared transactions
 * (group commit) with the same answers and effects as one by one; cached portal credentials
 * never accept what the database no longer allows.
 */
let t: TestApp;
let portal: TestPortal;
const MIN = 60_000;
const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);
const UNAUTHORIZED = { status: 401, body: { error: { code: 'UNAUTHORIZED', msg: WEBHOOK_MSG.unauthorized } } };

newPortalEachTest((app, fresh) => {
  t = app;
  portal = fresh;
});

describe('messages in flight together (group commit)', () => {
  it('applies each message once, in full, with its own answer; a redelivered id in flight answers 200 once', async () => {
    const others = await Promise.all(Array.from({ length: 5 }, async () => createPortal(t, await createTenant(t))));
    const sends = [
      // Device "a" of `portal` reported by 6 messages, newest last; flips each time.
      ...Array.from({ length: 6 }, (_, k) =>
        sendWebhook(t, portal, reported([{ externalId: 'a', status: (k % 2) as 0 | 1, at: ago((10 - k) * 1000) }]), { id: `msg_a${k}` }),
      ),
      // The same external id on other portals (other tenants) is another device.
      ...others.map((p) =>
        sendWebhook(
          t,
          p,
          reported([
            { externalId: 'a', status: 1, at: ago(MIN) },
            { externalId: 'b', status: 0, at: ago(MIN) },
          ]),
        ),
      ),
      sendWebhook(t, portal, reported([{ externalId: 'x', status: 1, at: ago(MIN) }]), { id: 'msg_twice' }),
      sendWebhook(t, portal, reported([{ externalId: 'x', status: 0, at: ago(30_000) }]), { id: 'msg_twice' }),
      // Invalid: refused alone, never joins a group, applies nothing.
      sendWebhook(t, portal, reported([{ externalId: 'bad', status: 3 as 0, at: ago(MIN) }])),
    ];
    const results = await Promise.all(sends);
    expect(results.slice(0, 11).map((r) => r.status)).toEqual(Array(11).fill(202));
    expect(
      results
        .slice(11, 13)
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 202]);
    expect(results[13].status).toBe(400);

    expect(await countRows(t, 'devices', portal.id)).toBe(2);
    expect(await countRows(t, 'webhook_messages', portal.id)).toBe(7);
    for (const p of others) expect(await countRows(t, 'devices', p.id)).toBe(2);
    // Whatever order the messages were grouped in (PostgreSQL runs several groups at once), "a" ends
    // at its newest report, and its history is one unbroken chain of periods alternating status.
    const a = (await deviceState(t, portal.id, 'a'))!;
    expect(a).toMatchObject({ status: 1, last_report_at: ago(5000).toISOString() });
    const periods = await periodsOf(t, a.id);
    for (let i = 1; i < periods.length; i++)
      expect(periods[i]).toMatchObject({ from: periods[i - 1].to, status: 1 - periods[i - 1].status });
    expect(periods.at(-1)).toEqual({ status: 1, from: a.status_since, to: null });
  });

  it('applies messages sent one after the other exactly as before: a flip per message is a period per message', async () => {
    for (let k = 0; k < 4; k++)
      expect(
        (await sendWebhook(t, portal, reported([{ externalId: 'a', status: (k % 2) as 0 | 1, at: ago((10 - k) * 1000) }]))).status,
      ).toBe(202);
    const a = (await deviceState(t, portal.id, 'a'))!;
    expect((await periodsOf(t, a.id)).map((p) => p.status)).toEqual([0, 1, 0, 1]);
  });
});

describe('cached portal credentials', () => {
  it('refuses the next message once the portal or its tenant is deleted, even though its secret was cached', async () => {
    const send = () => sendWebhook(t, portal, reported([{ externalId: 'x', status: 1, at: ago(MIN) }]));
    expect((await send()).status).toBe(202);
    await t.database.exec(`update portals set deleted_at = now() where id = ${portal.id}`);
    expect(await send()).toEqual(UNAUTHORIZED);
    const other = await createPortal(t, await createTenant(t));
    expect((await sendWebhook(t, other, reported([{ externalId: 'x', status: 1, at: ago(MIN) }]))).status).toBe(202);
    await t.database.exec(`update tenants set deleted_at = now() where id = ${other.tenantId}`);
    expect(await sendWebhook(t, other, reported([{ externalId: 'y', status: 1, at: ago(MIN) }]))).toEqual(UNAUTHORIZED);
  });

  it('takes a rotation at once: the new secret works immediately, a secret rotated out twice is refused', async () => {
    const tenant = await createTenant(t);
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const created = await t.call(portalEndpoints.create, { token: admin.token, body: { name: 'Cached', apiKey: 'key-cached-0001' } });
    const first = created.body.data.webhookSecret!;
    const target = { id: created.body.data.id, webhookSecret: first };
    const report = () => reported([{ externalId: 'cam', status: 1, at: ago(MIN) }]);
    const rotate = async () =>
      (await t.call(portalEndpoints.rotateSecret, { token: admin.token, params: { id: target.id }, body: {} })).body.data.webhookSecret!;

    expect((await sendWebhook(t, target, report(), { secrets: [first] })).status).toBe(202);
    const second = await rotate();
    expect((await sendWebhook(t, target, report(), { secrets: [second] })).status).toBe(202);
    expect((await sendWebhook(t, target, report(), { secrets: [first] })).status).toBe(202);
    const third = await rotate();
    // `first` is neither current nor previous any more, though the process had it cached as valid.
    expect(await sendWebhook(t, target, report(), { secrets: [first] })).toEqual(UNAUTHORIZED);
    expect((await sendWebhook(t, target, report(), { secrets: [second] })).status).toBe(202);
    expect((await sendWebhook(t, target, report(), { secrets: [third] })).status).toBe(202);
  });
});

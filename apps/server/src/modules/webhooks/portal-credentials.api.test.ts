import { WEBHOOK_MSG, portalEndpoints } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTenant, createUser, type TestPortal } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { newPortalEachTest } from '../../../test/kits/webhooks/portal-each-test.ts';
import { PortalCredentials } from './portal-credentials.ts';
import { readSignedHeaders } from './signature.ts';
import { reported, sendWebhook, signatureHeaders } from '../../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * The per-process cache of decrypted portal secrets: one database read per portal however many
 * messages miss at once, and never an answer the database would not give (rotation, deletion).
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

/** The database with its transactions counted (each credentials read is one). */
function countingDb(): { db: Db; reads: () => number } {
  let reads = 0;
  const db = new Proxy(t.database.urgentDb, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'transaction') reads++;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db, reads: () => reads };
}

function signed(secrets: string[], body: string, id = `msg_${Math.random()}`) {
  const headers = signatureHeaders(secrets, id, t.clock.now(), body);
  return readSignedHeaders(headers)!;
}

describe('PortalCredentials', () => {
  it('reads a portal once for a burst of messages that all miss the cache, then answers from the cache', async () => {
    const { db, reads } = countingDb();
    const credentials = new PortalCredentials(t.deps, db);
    const body = Buffer.from('{"type":"devices.reported","data":{"devices":[]}}');
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => credentials.verify(portal.id, signed([portal.webhookSecret], body.toString()), body)),
    );
    expect(burst.every((v) => v?.tenantId === portal.tenantId)).toBe(true);
    expect(reads()).toBe(1);
    expect((await credentials.verify(portal.id, signed([portal.webhookSecret], body.toString()), body))?.fresh).toBe(false);
    expect(reads()).toBe(1);
    // A wrong signature is checked against a fresh read (a rotation's new secret may be unknown here) and refused.
    expect(
      await credentials.verify(portal.id, signed(['whsec_' + Buffer.from('x'.repeat(32)).toString('base64')], body.toString()), body),
    ).toBeNull();
    expect(reads()).toBe(2);
    // forget() drops the entry: the next message reads again.
    credentials.forget(portal.id);
    expect((await credentials.verify(portal.id, signed([portal.webhookSecret], body.toString()), body))?.fresh).toBe(true);
    expect(reads()).toBe(3);
  });

  it('never caches an unknown portal', async () => {
    const { db, reads } = countingDb();
    const credentials = new PortalCredentials(t.deps, db);
    const body = Buffer.from('{}');
    expect(await credentials.verify(999_999, signed([portal.webhookSecret], '{}'), body)).toBeNull();
    expect(await credentials.verify(999_999, signed([portal.webhookSecret], '{}'), body)).toBeNull();
    expect(reads()).toBe(2);
  });
});

describe('cached credentials over HTTP', () => {
  it('accepts a message whose cached secret was rotated out when another of its signatures is current', async () => {
    const tenant = await createTenant(t);
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const created = await t.call(portalEndpoints.create, { token: admin.token, body: { name: 'Cached twice', apiKey: 'key-cached-0002' } });
    const first = created.body.data.webhookSecret!;
    const target = { id: created.body.data.id, webhookSecret: first };
    const report = () => reported([{ externalId: 'cam', status: 1, at: ago(MIN) }]);
    const rotate = async () =>
      (await t.call(portalEndpoints.rotateSecret, { token: admin.token, params: { id: target.id }, body: {} })).body.data.webhookSecret!;

    // The process caches `first` as the current secret ...
    expect((await sendWebhook(t, target, report(), { secrets: [first] })).status).toBe(202);
    await rotate();
    const third = await rotate();
    // ... which now verifies nothing the database allows: the transaction refuses it, and the
    // message is verified again against fresh credentials, where `third` is current.
    expect((await sendWebhook(t, target, report(), { secrets: [first, third] })).status).toBe(202);
    expect(await sendWebhook(t, target, report(), { secrets: [first] })).toEqual(UNAUTHORIZED);
    expect((await sendWebhook(t, target, report(), { secrets: [third] })).status).toBe(202);
  });

  it('refuses a deleted portal at once and keeps refusing it', async () => {
    const send = () => sendWebhook(t, portal, reported([{ externalId: 'x', status: 1, at: ago(MIN) }]));
    expect((await send()).status).toBe(202);
    await t.database.exec(`update portals set deleted_at = now() where id = ${portal.id}`);
    expect(await send()).toEqual(UNAUTHORIZED);
    expect(await send()).toEqual(UNAUTHORIZED);
  });
});

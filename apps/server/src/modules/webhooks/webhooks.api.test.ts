import { DEVICE_STATUS, WEBHOOK_MSG, portalEndpoints } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { createPortal, createTenant, createUser, type TestPortal } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { newPortalEachTest } from '../../../test/kits/webhooks/portal-each-test.ts';
import {
  countRows,
  deviceState,
  periodsOf,
  reported,
  sendWebhook,
  signatureHeaders,
} from '../../../test/kits/webhooks/webhook-test-kit.ts';

let t: TestApp;
let portal: TestPortal;
const MIN = 60_000;
const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

newPortalEachTest((app, fresh) => {
  t = app;
  portal = fresh;
});

const UNAUTHORIZED = { error: { code: 'UNAUTHORIZED', msg: WEBHOOK_MSG.unauthorized } };

describe('POST /v0/webhooks/portals/:id: signature, timestamp and portal', () => {
  it('accepts a message signed by the standardwebhooks library and creates the devices with their first period', async () => {
    const at = ago(MIN);
    const res = await sendWebhook(
      t,
      portal,
      reported([
        { externalId: 'cam-1', name: 'Lobby camera', deviceType: 0, deviceModel: 'Axis P1', status: 1, at },
        { externalId: 'door-1', name: 'Front door', deviceType: 2, status: 0, at },
      ]),
    );
    expect(res).toEqual({ status: 202, body: { data: { accepted: 2 } } });
    const cam = await deviceState(t, portal.id, 'cam-1');
    expect(cam).toMatchObject({
      name: 'Lobby camera',
      device_type: 0,
      status: 1,
      last_report_at: at.toISOString(),
      last_online: at.toISOString(),
      status_since: at.toISOString(),
      first_seen_at: at.toISOString(),
      removed_at: null,
    });
    const door = await deviceState(t, portal.id, 'door-1');
    expect(door).toMatchObject({ device_type: 2, status: 0, last_online: null });
    expect(await periodsOf(t, cam!.id)).toEqual([{ status: 1, from: at.toISOString(), to: null }]);
    expect(await periodsOf(t, door!.id)).toEqual([{ status: 0, from: at.toISOString(), to: null }]);
  });

  it('answers the same 401 for a bad signature, stale or future timestamps, missing headers and unknown portals', async () => {
    const payload = reported([{ externalId: 'x', status: 1, at: ago(MIN) }]);
    const attempts = [
      await sendWebhook(t, portal, payload, { secrets: ['whsec_' + Buffer.alloc(32, 7).toString('base64')] }),
      await sendWebhook(t, portal, payload, { signedAt: ago(5 * MIN + 1000) }),
      await sendWebhook(t, portal, payload, { signedAt: new Date(t.clock.now().getTime() + 5 * MIN + 1000) }),
      await sendWebhook(t, portal, payload, { headers: { 'webhook-signature': '' } }),
      await sendWebhook(t, portal, payload, { headers: { 'webhook-signature': 'v2,abc' } }),
      await sendWebhook(t, portal, payload, { headers: { 'webhook-timestamp': 'soon' } }),
      await sendWebhook(t, { id: 999_999, webhookSecret: portal.webhookSecret }, payload),
      await sendWebhook(t, { id: 'abc', webhookSecret: portal.webhookSecret }, payload),
      // The portal's own id written otherwise than its canonical decimal names no portal, even correctly signed.
      await sendWebhook(t, { id: `000${portal.id}`, webhookSecret: portal.webhookSecret }, payload),
      await sendWebhook(t, { id: `0x${portal.id.toString(16)}`, webhookSecret: portal.webhookSecret }, payload),
      await sendWebhook(t, { id: `+${portal.id}`, webhookSecret: portal.webhookSecret }, payload),
      // No signature headers at all.
      await t.app
        .inject({
          method: 'POST',
          url: `/v0/webhooks/portals/${portal.id}`,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        })
        .then((r) => ({ status: r.statusCode, body: r.json<unknown>() })),
    ];
    for (const res of attempts) expect(res).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(await countRows(t, 'devices', portal.id)).toBe(0);
  });

  it('verifies over the bytes as sent: reformatting the JSON after signing is refused', async () => {
    const body = JSON.stringify(reported([{ externalId: 'x', status: 1, at: ago(MIN) }]));
    const signedFor = signatureHeaders([portal.webhookSecret], 'msg_fmt', t.clock.now(), body);
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v0/webhooks/portals/${portal.id}`,
      headers: { ...signedFor, 'content-type': 'application/json' },
      payload: pretty,
    });
    expect(res.statusCode).toBe(401);
    const ok = await t.app.inject({
      method: 'POST',
      url: `/v0/webhooks/portals/${portal.id}`,
      headers: { ...signedFor, 'content-type': 'application/json' },
      payload: body,
    });
    expect(ok.statusCode).toBe(202);
  });

  it('accepts a timestamp just inside the 5-minute window on either side', async () => {
    const payload = reported([{ externalId: 'x', status: 1, at: ago(10 * MIN) }]);
    expect((await sendWebhook(t, portal, payload, { signedAt: ago(5 * MIN - 1000) })).status).toBe(202);
    expect((await sendWebhook(t, portal, payload, { signedAt: new Date(t.clock.now().getTime() + 5 * MIN - 1000) })).status).toBe(202);
  });

  it('refuses a deleted portal with the same 401', async () => {
    await t.database.exec(`update portals set deleted_at = now() where id = ${portal.id}`);
    expect(await sendWebhook(t, portal, reported([{ externalId: 'x', status: 1, at: ago(MIN) }]))).toEqual({
      status: 401,
      body: UNAUTHORIZED,
    });
  });
});

describe('idempotency and validation', () => {
  it('applies a webhook-id once: a redelivery answers 200 duplicate with no second effect', async () => {
    const first = await sendWebhook(t, portal, reported([{ externalId: 'a', status: 1, at: ago(2 * MIN) }]), { id: 'msg_same' });
    expect(first.status).toBe(202);
    const again = await sendWebhook(
      t,
      portal,
      reported([
        { externalId: 'a', status: 0, at: ago(MIN) },
        { externalId: 'b', status: 1, at: ago(MIN) },
      ]),
      { id: 'msg_same' },
    );
    expect(again).toEqual({ status: 200, body: { data: { accepted: 0, duplicate: true } } });
    expect(await countRows(t, 'devices', portal.id)).toBe(1);
    expect((await deviceState(t, portal.id, 'a'))!.status).toBe(1);
    // Another portal may use the same id: ids are per portal.
    const other = await createPortal(t, await createTenant(t));
    expect((await sendWebhook(t, other, reported([{ externalId: 'a', status: 1, at: ago(MIN) }]), { id: 'msg_same' })).status).toBe(202);
  });

  it('answers 400 naming the first bad path and applies nothing of the message', async () => {
    const payload = reported([
      { externalId: 'ok-1', status: 1, at: ago(MIN) },
      { externalId: 'ok-2', status: 1, at: ago(MIN) },
      { externalId: 'bad', status: 1, at: ago(MIN) },
    ]);
    (payload.data.devices[2] as { status: number }).status = 2;
    const res = await sendWebhook(t, portal, payload, { id: 'msg_bad' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'VALIDATION_FAILED', msg: 'data.devices.2.status: status must be 0 (offline) or 1 (online)' });
    expect(await countRows(t, 'devices', portal.id)).toBe(0);
    expect(await countRows(t, 'webhook_messages', portal.id)).toBe(0);
    // Nothing was recorded, so the corrected message may reuse its id.
    (payload.data.devices[2] as { status: number }).status = 0;
    expect((await sendWebhook(t, portal, payload, { id: 'msg_bad' })).status).toBe(202);
  });

  it.each([
    [{ type: 'devices.reported', data: { devices: [] } }, 'data.devices: devices must hold at least 1 device'],
    [{ type: 'device.updated', data: {} }, 'type: type must be "devices.reported" or "device.removed"'],
    [
      {
        type: 'devices.reported',
        data: { devices: [{ externalId: 'a', name: 'A', deviceType: 5, deviceModel: '', status: 1, at: '2026-11-22T05:59:00Z' }] },
      },
      'data.devices.0.deviceType: deviceType must be an integer from 0 to 4',
    ],
    [
      {
        type: 'devices.reported',
        data: { devices: [{ externalId: 'a', name: 'A', deviceType: 1, deviceModel: '', status: 1, at: 'yesterday' }] },
      },
      'data.devices.0.at: at must be an ISO 8601 timestamp with a time zone (e.g. 2026-11-22T06:00:00Z)',
    ],
    [
      {
        type: 'devices.reported',
        data: { devices: [{ externalId: '', name: 'A', deviceType: 1, deviceModel: '', status: 1, at: '2026-11-22T05:59:00Z' }] },
      },
      'data.devices.0.externalId: externalId must not be empty',
    ],
    [
      {
        type: 'devices.reported',
        data: {
          devices: [{ externalId: 'a', name: 'A', deviceType: 1, deviceModel: '', status: 1, at: '2026-11-22T05:59:00Z', extra: 1 }],
        },
      },
      'data.devices.0: Unrecognized key: "extra"',
    ],
    [
      {
        type: 'devices.reported',
        data: { devices: [{ externalId: 'a', name: 'A', deviceType: 1, deviceModel: '', status: 1, at: '2026-11-22T06:30:00Z' }] },
      },
      'data.devices.0.at: must not be more than 5 minutes in the future',
    ],
    [{ type: 'device.removed', data: {} }, 'data.externalId: externalId must be a string'],
  ])('rejects %j with a message naming the path', async (payload, msg) => {
    const res = await sendWebhook(t, portal, payload);
    expect(res.status).toBe(400);
    expect(res.body.error!.msg).toBe(msg);
  });

  it('rejects a body that is not JSON (after the signature) with 400', async () => {
    const res = await sendWebhook(t, portal, null, { rawBody: '{"type":' });
    expect(res).toEqual({ status: 400, body: { error: { code: 'VALIDATION_FAILED', msg: WEBHOOK_MSG.invalidJson } } });
  });

  it('takes 5,000 devices in one message (a body over the 1 MiB API limit) and refuses 5,001', async () => {
    const at = ago(MIN);
    const many = Array.from({ length: 5000 }, (_, i) => ({
      externalId: `dev-${i}`,
      name: `Device number ${i} ${'x'.repeat(150)}`,
      deviceType: i % 5,
      status: i % 3 === 0 ? DEVICE_STATUS.offline : DEVICE_STATUS.online,
      at,
    }));
    const payload = reported(many);
    expect(JSON.stringify(payload).length).toBeGreaterThan(1024 * 1024);
    const res = await sendWebhook(t, portal, payload);
    expect(res).toEqual({ status: 202, body: { data: { accepted: 5000 } } });
    expect(await countRows(t, 'devices', portal.id)).toBe(5000);
    expect(await countRows(t, 'device_status_periods', portal.id)).toBe(5000);
    const tooMany = await sendWebhook(t, portal, reported([...many, { externalId: 'one-more', status: 1, at }]));
    expect(tooMany.body.error!.msg).toBe('data.devices: devices must hold at most 5000 devices');
  });
});

describe('secret rotation', () => {
  it('accepts the previous secret for 24 hours after a rotation, and any one valid signature among several', async () => {
    const tenant = await createTenant(t);
    const admin = await createUser(t, { tenant, roles: ['Admin'] });
    const created = await t.call(portalEndpoints.create, { token: admin.token, body: { name: 'Rotating', apiKey: 'key-rotating-0001' } });
    const oldSecret = created.body.data.webhookSecret!;
    const target = { id: created.body.data.id, webhookSecret: oldSecret };
    const rotated = await t.call(portalEndpoints.rotateSecret, { token: admin.token, params: { id: target.id }, body: {} });
    const newSecret = rotated.body.data.webhookSecret!;
    const report = () => reported([{ externalId: 'cam', status: 1, at: ago(MIN) }]);

    expect((await sendWebhook(t, target, report(), { secrets: [oldSecret] })).status).toBe(202);
    expect((await sendWebhook(t, target, report(), { secrets: [newSecret] })).status).toBe(202);
    expect((await sendWebhook(t, target, report(), { secrets: [oldSecret, newSecret] })).status).toBe(202);

    t.clock.advance(24 * 60 * MIN - 1000);
    expect((await sendWebhook(t, target, report(), { secrets: [oldSecret] })).status).toBe(202);
    t.clock.advance(2000);
    expect(await sendWebhook(t, target, report(), { secrets: [oldSecret] })).toEqual({ status: 401, body: UNAUTHORIZED });
    // A sender still signing with both secrets keeps working: one valid signature is enough.
    expect((await sendWebhook(t, target, report(), { secrets: [oldSecret, newSecret] })).status).toBe(202);
    expect((await sendWebhook(t, target, report(), { secrets: [newSecret] })).status).toBe(202);
  });
});

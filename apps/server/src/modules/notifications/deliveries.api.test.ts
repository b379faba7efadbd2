import { notificationChannelEndpoints as ch, notificationEndpoints, type NotificationChannel } from '@vigil/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mail, type Mailer } from '../../mail/mailer.ts';
import { createCast, createDevices, createPortal, type TestPortal } from '../../../test/factories.ts';
import { sharedDatabase } from '../../../test/database.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { renewTokens } from '../../../test/kits/cases/operations-test-support.ts';
import { startSmtpSink } from '../../../test/kits/auth/smtp-sink.test-support.ts';
import {
  ackAlert,
  announceAndSend,
  deliveryRows,
  MINUTE_MS,
  openAlert,
  resolveAlert,
  startReceiver,
  verifySignature,
} from '../../../test/kits/notifications/notify-test-kit.ts';
import { MAX_ATTEMPTS, retryDelayMs, sendAllDue } from './index.ts';

/**
 * Announcing and delivering against real receivers: local HTTP servers (signature checked as a
 * receiver would, with standardwebhooks) and a local SMTP server.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];

/** The real mailer over SMTP to the local sink (created once the sink listens). */
class SmtpMailer implements Mailer {
  inner: Mailer | undefined;
  send(mail: Mail) {
    return this.inner!.send(mail);
  }
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  const mailer = new SmtpMailer();
  mailer.inner = createMailer({
    smtpUrl: smtp.url,
    from: 'Vigil <alerts@vigil.test>',
    database: await sharedDatabase(),
    log: pino({ level: 'silent' }),
  });
  t = await createTestApp({ env: { NOTIFY_ALLOW_PRIVATE_TARGETS: '1', PUBLIC_URL: 'https://vigil.example.com' }, overrides: { mailer } });
  cast = await createCast(t);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await smtp.close();
  await t.close();
});

async function receiver(opts: Parameters<typeof startReceiver>[0] = {}) {
  const r = await startReceiver(opts);
  receivers.push(r);
  return r;
}

async function channel(body: Record<string, unknown>): Promise<NotificationChannel> {
  await renewTokens(t, [cast.admin, cast.pm, cast.salesman, cast.otherAdmin]);
  const res = await t.call(ch.create, { token: cast.admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function portalWithDevices(n: number): Promise<{ portal: TestPortal; ids: number[] }> {
  const portal = await createPortal(t, cast.tenant);
  const devices = await createDevices(
    t,
    portal,
    Array.from({ length: n }, (_, i) => ({ name: `Cam ${i + 1}`, status: 1 as const })),
  );
  return { portal, ids: devices.map((d) => d.id) };
}

async function log(filter: Record<string, unknown>) {
  await renewTokens(t, [cast.salesman]);
  const res = await t.call(notificationEndpoints.list, { token: cast.salesman.token, query: { range: [0, 100], filter } });
  expect(res.status).toBe(200);
  return res.body.data.list;
}

describe('webhook deliveries', () => {
  it('announces after the delay, retries a 500 with the same webhook-id, and signs every attempt', async () => {
    const hook = await receiver({ statuses: [500] });
    const { portal, ids } = await portalWithDevices(2);
    const c = await channel({ name: 'Hook', type: 'webhook', target: hook.url, customerIds: [portal.id], delayMinutes: 5 });
    const alertId = await openAlert(t, portal, ids);
    await announceAndSend(t);
    expect(hook.received).toHaveLength(0);
    t.clock.advance(5 * MINUTE_MS);
    await announceAndSend(t);
    await hook.waitFor(1);
    const [first] = await log({ alertId });
    expect(first).toMatchObject({
      channelId: c.id,
      channelName: 'Hook',
      alertId,
      event: 'alert.opened',
      status: 'pending',
      attempts: 1,
      lastError: 'HTTP 500',
    });
    // Not due again before its backoff; due within the first minute.
    await sendAllDue(t.deps);
    expect(hook.received).toHaveLength(1);
    t.clock.advance(retryDelayMs(1));
    expect(retryDelayMs(1)).toBeLessThanOrEqual(60_000);
    await sendAllDue(t.deps);
    const [a, b] = await hook.waitFor(2);
    expect(a.headers['webhook-id']).toBe(String(first.id));
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    const payload = verifySignature(c.secret!, b);
    expect(() => verifySignature('whsec_' + Buffer.alloc(32, 1).toString('base64'), b)).toThrow();
    expect(payload).toMatchObject({
      type: 'alert.opened',
      data: {
        alert: {
          id: alertId,
          alertType: 0,
          customerId: portal.id,
          customerName: portal.name,
          offlineCount: 2,
          status: 1,
          resolvedAt: null,
          ackedAt: null,
        },
        url: `https://vigil.example.com/dashboards/alerts/${alertId}`,
      },
    });
    expect((payload.data.devices as { name: string; deviceModel: string }[]).map((d) => d.name)).toEqual(['Cam 1', 'Cam 2']);
    expect(b.body).toBe(a.body);
    const [done] = await log({ alertId });
    expect(done).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(done.sentAt).not.toBeNull();

    // Resolved: announced once, after the opening.
    await resolveAlert(t, portal.tenantId, alertId);
    await announceAndSend(t);
    await announceAndSend(t);
    const [resolved] = await hook.waitFor(3);
    expect(hook.received).toHaveLength(3);
    expect(verifySignature(c.secret!, hook.received[2])).toMatchObject({
      type: 'alert.resolved',
      data: { alert: { id: alertId, status: 0 } },
    });
    expect(resolved).toBeDefined();
    expect((await log({ alertId, status: 'sent' })).map((d) => d.event).sort()).toEqual(['alert.opened', 'alert.resolved']);
  });

  it('sends nothing for a flap shorter than the delay, neither opened nor resolved', async () => {
    const hook = await receiver();
    const { portal, ids } = await portalWithDevices(1);
    await channel({ name: 'Flap', type: 'webhook', target: hook.url, customerIds: [portal.id], delayMinutes: 5 });
    const alertId = await openAlert(t, portal, ids);
    t.clock.advance(4 * MINUTE_MS);
    await announceAndSend(t);
    await resolveAlert(t, portal.tenantId, alertId);
    t.clock.advance(10 * MINUTE_MS);
    await announceAndSend(t);
    await announceAndSend(t);
    expect(await log({ alertId })).toEqual([]);
    expect(hook.received).toHaveLength(0);
  });

  it('announces only the portals a channel names, and repeats until acknowledged', async () => {
    const hook = await receiver();
    const { portal, ids } = await portalWithDevices(1);
    const other = await portalWithDevices(1);
    await channel({
      name: 'Repeat',
      type: 'webhook',
      target: hook.url,
      customerIds: [portal.id],
      delayMinutes: 0,
      repeatMinutes: 10,
      events: ['alert.opened', 'alert.repeated'],
    });
    const alertId = await openAlert(t, portal, ids);
    const otherAlert = await openAlert(t, other.portal, other.ids);
    await announceAndSend(t);
    await hook.waitFor(1);
    t.clock.advance(10 * MINUTE_MS);
    await announceAndSend(t);
    await announceAndSend(t);
    await hook.waitFor(2);
    expect(hook.received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(['alert.opened', 'alert.repeated']);
    await ackAlert(t, portal.tenantId, alertId);
    t.clock.advance(30 * MINUTE_MS);
    await announceAndSend(t);
    expect(hook.received).toHaveLength(2);
    expect(await log({ alertId: otherAlert })).toEqual([]);
  });

  it('ends a delivery at a 4xx other than 408/429, and retries 429', async () => {
    const gone = await receiver({ thenStatus: 410 });
    const busy = await receiver({ statuses: [429] });
    const { portal, ids } = await portalWithDevices(1);
    await channel({ name: 'Gone', type: 'webhook', target: gone.url, customerIds: [portal.id], delayMinutes: 0 });
    await channel({ name: 'Busy', type: 'slack', target: busy.url, customerIds: [portal.id], delayMinutes: 0 });
    const alertId = await openAlert(t, portal, ids);
    await announceAndSend(t);
    t.clock.advance(retryDelayMs(1));
    await sendAllDue(t.deps);
    const rows = await log({ alertId });
    expect(rows.find((d) => d.channelName === 'Gone')).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 410' });
    expect(rows.find((d) => d.channelName === 'Busy')).toMatchObject({ status: 'sent', attempts: 2 });
    expect(gone.received).toHaveLength(1);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts spread over more than an hour`, async () => {
    const down = await receiver({ thenStatus: 503 });
    const { portal, ids } = await portalWithDevices(1);
    await channel({ name: 'Down', type: 'teams', target: down.url, customerIds: [portal.id], delayMinutes: 0 });
    const alertId = await openAlert(t, portal, ids);
    await announceAndSend(t);
    const start = t.clock.now().getTime();
    for (let failed = 1; failed < MAX_ATTEMPTS; failed++) {
      t.clock.advance(retryDelayMs(failed));
      await sendAllDue(t.deps);
    }
    expect(MAX_ATTEMPTS).toBeGreaterThanOrEqual(6);
    expect(t.clock.now().getTime() - start).toBeGreaterThanOrEqual(60 * MINUTE_MS);
    expect(down.received).toHaveLength(MAX_ATTEMPTS);
    const [row] = await log({ alertId });
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'HTTP 503' });
  });
});

describe('email, Slack and Teams messages', () => {
  it('mails an opened alert over SMTP with the portal, the devices and the link', async () => {
    const { portal, ids } = await portalWithDevices(3);
    await channel({
      name: 'Mail',
      type: 'email',
      target: ['oncall@example.com', 'lead@example.com'],
      customerIds: [portal.id],
      delayMinutes: 1,
    });
    const alertId = await openAlert(t, portal, ids);
    t.clock.advance(MINUTE_MS);
    const since = smtp.received.length;
    await announceAndSend(t);
    const mail = await smtp.waitFor('oncall@example.com', since);
    expect(mail.to.sort()).toEqual(['lead@example.com', 'oncall@example.com']);
    expect(mail.decoded).toContain(`Subject: [Vigil] ${portal.name}: 3 devices offline`);
    expect(mail.decoded).toContain('Cam 1 (Camera, Model X)');
    expect(mail.decoded).toContain(`https://vigil.example.com/dashboards/alerts/${alertId}`);
    expect((await log({ alertId }))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    await resolveAlert(t, portal.tenantId, alertId);
    await announceAndSend(t);
    const back = await smtp.waitFor('oncall@example.com', since + 1);
    expect(back.decoded).toContain(`Subject: [Vigil] ${portal.name}: back online`);
  });

  it('the Test button sends one signed test message now and answers its result', async () => {
    const hook = await receiver();
    const c = await channel({ name: 'Tested', type: 'webhook', target: hook.url });
    const res = await t.call(ch.test, { token: cast.pm.token, params: { id: c.id }, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ channelId: c.id, alertId: null, event: 'test', status: 'sent', attempts: 1, lastError: null });
    expect(verifySignature(c.secret!, hook.received[0])).toMatchObject({ type: 'test' });
    expect(hook.received[0].headers['webhook-id']).toBe(String(res.body.data.id));

    const failing = await receiver({ thenStatus: 500 });
    const f = await channel({ name: 'Failing', type: 'teams', target: failing.url });
    const failed = await t.call(ch.test, { token: cast.admin.token, params: { id: f.id }, body: {} });
    expect(failed.body.data).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 500' });
    // A test is not retried.
    t.clock.advance(10 * MINUTE_MS);
    await sendAllDue(t.deps);
    expect(failing.received).toHaveLength(1);
    const card = JSON.parse(failing.received[0].body) as {
      type: string;
      attachments: { contentType: string; content: { type: string } }[];
    };
    expect(card.attachments[0]).toMatchObject({
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: { type: 'AdaptiveCard' },
    });

    const slack = await receiver();
    const s = await channel({ name: 'Slack', type: 'slack', target: slack.url });
    await renewTokens(t, [cast.admin]);
    expect((await t.call(ch.test, { token: cast.admin.token, params: { id: s.id }, body: {} })).body.data.status).toBe('sent');
    const blocks = JSON.parse(slack.received[0].body) as { text: string; blocks: { type: string }[] };
    expect(blocks.text).toContain('Test message');
    expect(blocks.blocks.map((b) => b.type)).toContain('actions');

    const mail = await channel({ name: 'Mail test', type: 'email', target: ['test-me@example.com'] });
    const since = smtp.received.length;
    expect((await t.call(ch.test, { token: cast.admin.token, params: { id: mail.id }, body: {} })).body.data.status).toBe('sent');
    expect((await smtp.waitFor('test-me@example.com', since)).decoded).toContain('Subject: [Vigil] Test message for channel Mail test');
  });

  it('the log lists deliveries with their channel and filters by status', async () => {
    const rows = await deliveryRows(t.database);
    expect(rows.length).toBeGreaterThan(0);
    const failed = await log({ status: 'failed' });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((d) => d.status === 'failed')).toBe(true);
    await renewTokens(t, [cast.otherAdmin]);
    const theirs = await t.call(notificationEndpoints.list, { token: cast.otherAdmin.token });
    expect(theirs.body.data).toEqual({ list: [], count: 0 });
  });
});

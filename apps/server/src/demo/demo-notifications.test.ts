import { notificationChannelEndpoints, notificationEndpoints } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { announceAndSend, MINUTE_MS, openAlert } from '../../test/kits/notifications/notify-test-kit.ts';
import { DEMO_ONCALL_EMAIL, seedDemo } from './demo-seed.ts';

/** The demo's notification channels: an outbox email channel with a 1-minute delay shows alerts arriving. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.deps, 'demo-test-pass-1234');
}, 120_000);
afterAll(() => t.close());

describe('demo notifications', () => {
  it('has the Admins channel and an on-call outbox channel with a 1-minute delay, announcing a new alert in the log', async () => {
    const [pm] = await queryRows<{ id: number; tenant_id: number; name: string }>(
      t.database.db,
      sql`select id, tenant_id, name from users where email = 'pm@northwind.demo'`,
    );
    const token = await t.deps.accessTokens.sign({
      userId: pm.id,
      userName: pm.name,
      tenantId: pm.tenant_id,
      tenantName: 'Demo',
      roles: ['Project Manager'],
    });
    const channels = (await t.call(notificationChannelEndpoints.list, { token, query: { sort: ['id', 'ASC'] } })).body.data.list;
    expect(channels.map((c) => [c.name, c.type, c.target, c.delayMinutes])).toEqual([
      ['Admins', 'email', ['admin@northwind.demo'], 5],
      ['On-call (outbox)', 'email', [DEMO_ONCALL_EMAIL], 1],
    ]);
    // The seeded history is not announced: only alerts opened after the channels.
    await announceAndSend(t);
    expect(t.mailer.sent).toHaveLength(0);

    const [portal] = await queryRows<{ id: number; name: string; tenant_id: number }>(
      t.database.db,
      sql`select id, name, tenant_id from portals order by id limit 1`,
    );
    const devices = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from devices where portal_id = ${portal.id} order by id limit 2`,
    );
    const alertId = await openAlert(
      t,
      { id: portal.id, tenantId: portal.tenant_id, name: portal.name, webhookSecret: '' },
      devices.map((d) => d.id),
    );
    t.clock.advance(MINUTE_MS);
    await announceAndSend(t);
    expect(t.mailer.last(DEMO_ONCALL_EMAIL).subject).toBe(`[Vigil] ${portal.name}: 2 devices offline`);
    const token2 = await t.deps.accessTokens.sign({
      userId: pm.id,
      userName: pm.name,
      tenantId: pm.tenant_id,
      tenantName: 'Demo',
      roles: ['Project Manager'],
    });
    const log = (await t.call(notificationEndpoints.list, { token: token2, query: { filter: { alertId } } })).body.data.list;
    expect(log.map((d) => [d.channelName, d.event, d.status])).toEqual([['On-call (outbox)', 'alert.opened', 'sent']]);
  });
});

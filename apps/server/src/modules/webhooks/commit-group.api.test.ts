import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPortal, createTenant, type TestPortal } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import { commitGroup, REFUSED, type Outcome, type PendingMessage } from './commit-group.ts';
import { GroupCommitter } from './group-commit.ts';
import { countRows, periodsOf, removed, reported, type DeviceInput } from '../../../test/kits/webhooks/webhook-test-kit.ts';

/**
 * One commit group, several messages: on PGlite a group whose devices are each reported once is
 * applied by one set-based statement (one-pass.repository.ts), otherwise statement by statement.
 * Either way each message keeps its own outcome and the result equals applying the messages one
 * after the other. The groups are built here directly, so which messages share a transaction is
 * certain (through HTTP it depends on timing).
 */
let t: TestApp;
const ago = (s: number) => new Date(t.clock.now().getTime() - s * 1000);
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set('2026-11-22T06:00:00.000Z');
});

async function sealedSecretOf(portal: TestPortal): Promise<string> {
  const [row] = await queryRows<{ enc: string }>(t.database.db, sql`select webhook_secret_enc as enc from portals where id = ${portal.id}`);
  return row.enc;
}

/** A verified message as the webhook route hands it to the committer. */
async function pending(
  portal: TestPortal,
  devices: DeviceInput[] | { removed: string },
  opts: { id?: string; secretEnc?: string } = {},
): Promise<PendingMessage> {
  const message = ('removed' in devices ? removed(devices.removed) : reported(devices)) as PendingMessage['message'];
  const webhookId = opts.id ?? `msg_group_${++seq}`;
  const deviceCount = message.type === 'devices.reported' ? message.data.devices.length : 1;
  return {
    key: `${portal.id}:${webhookId}`,
    weight: deviceCount,
    alone: message.type === 'device.removed',
    record: {
      tenantId: portal.tenantId,
      portalId: portal.id,
      webhookId,
      deviceCount,
      secretEnc: opts.secretEnc ?? (await sealedSecretOf(portal)),
    },
    message,
  };
}

/** Each device of the portal by external id: state and history, without ids or the portal. */
async function snapshot(portal: TestPortal) {
  const devices = await queryRows<{
    id: number;
    external_id: string;
    name: string;
    device_type: number;
    status: number;
    last_report_at: string;
    last_online: string | null;
    status_since: string;
    removed_at: string | null;
  }>(
    t.database.db,
    sql`select id, external_id, name, device_type, status, last_report_at, last_online, status_since, removed_at from devices where portal_id = ${portal.id} order by external_id`,
  );
  const iso = (v: unknown) => (v === null ? null : new Date(v as string).toISOString());
  return Promise.all(
    devices.map(async (d) => {
      const [late] = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from late_device_reports where device_id = ${d.id}`,
      );
      return {
        externalId: d.external_id,
        name: d.name,
        deviceType: Number(d.device_type),
        status: Number(d.status),
        lastReportAt: iso(d.last_report_at),
        lastOnline: iso(d.last_online),
        statusSince: iso(d.status_since),
        removedAt: iso(d.removed_at),
        periods: await periodsOf(t, Number(d.id)),
        lateReports: Number(late.n),
      };
    }),
  );
}

/** A group and the server time of its commit (a removal takes effect at that time). */
interface Step {
  at: Date;
  group: PendingMessage[];
}

/** The steps `build(portal)` makes, applied on a fresh portal: each group in one transaction, or each message alone. */
async function applyOn(build: (portal: TestPortal) => Promise<Step[]>, grouped: boolean) {
  const portal = await createPortal(t, await createTenant(t));
  const outcomes: Outcome[] = [];
  for (const { at, group } of await build(portal)) {
    t.clock.set(at);
    if (grouped) outcomes.push(...(await commitGroup(t.deps, group)));
    else for (const message of group) outcomes.push(...(await commitGroup(t.deps, [message])));
  }
  return { portal, outcomes, devices: await snapshot(portal) };
}

describe('a commit group of several messages', () => {
  it('ends exactly as the same messages applied one after the other: created, flipped, late, renamed, back after removal', async () => {
    const now = t.clock.now();
    const build = async (p: TestPortal): Promise<Step[]> => [
      {
        at: ago(590),
        group: [
          await pending(p, [
            { externalId: 'a', status: 1, at: ago(600) },
            { externalId: 'b', status: 1, at: ago(600) },
          ]),
          await pending(p, [{ externalId: 'gone', status: 1, at: ago(600) }]),
        ],
      },
      { at: ago(400), group: [await pending(p, { removed: 'gone' })] },
      {
        at: now,
        group: [
          // a flips; b reports late (older than its state) under a new name; c is new; gone comes back after its removal; d is new, renamed below.
          await pending(p, [
            { externalId: 'a', status: 0, at: ago(300) },
            { externalId: 'b', status: 0, at: ago(900), name: 'Back door' },
          ]),
          await pending(p, [
            { externalId: 'c', status: 0, at: ago(200), deviceType: 3 },
            { externalId: 'gone', status: 1, at: ago(100) },
          ]),
          await pending(p, [{ externalId: 'd', status: 1, at: ago(500), name: 'Door' }]),
        ],
      },
      {
        at: now,
        group: [
          await pending(p, [
            { externalId: 'd', status: 1, at: ago(50), name: 'Front door', deviceType: 2 },
            { externalId: 'a', status: 0, at: ago(40) },
          ]),
        ],
      },
    ];
    const grouped = await applyOn(build, true);
    const oneByOne = await applyOn(build, false);
    expect(grouped.outcomes).toEqual(oneByOne.outcomes);
    expect(grouped.outcomes).toEqual([
      { accepted: 2 },
      { accepted: 1 },
      { accepted: 1 },
      { accepted: 2 },
      { accepted: 2 },
      { accepted: 1 },
      { accepted: 2 },
    ]);
    expect(grouped.devices).toEqual(oneByOne.devices);
    // What the sequence means, so that both ways cannot agree on a wrong answer.
    const byId = Object.fromEntries(grouped.devices.map((d) => [d.externalId, d]));
    expect(byId.a).toMatchObject({
      status: 0,
      statusSince: ago(300).toISOString(),
      lastReportAt: ago(40).toISOString(),
      lastOnline: ago(600).toISOString(),
    });
    expect(byId.a.periods.map((p) => p.status)).toEqual([1, 0]);
    // A late report leaves the state and history alone but still names the device as its cloud does now.
    expect(byId.b).toMatchObject({ name: 'Back door', status: 1, lateReports: 1, periods: [{ status: 1, to: null }] });
    expect(byId.c).toMatchObject({ status: 0, deviceType: 3, lastOnline: null, periods: [{ status: 0, to: null }] });
    expect(byId.gone).toMatchObject({
      status: 1,
      removedAt: null,
      statusSince: ago(100).toISOString(),
      lastOnline: ago(100).toISOString(),
    });
    expect(byId.gone.periods).toHaveLength(2);
    expect(byId.d).toMatchObject({
      name: 'Front door',
      deviceType: 2,
      status: 1,
      lastOnline: ago(50).toISOString(),
      periods: [{ status: 1, to: null }],
    });
  });

  it('answers a duplicate and a refused message for themselves and applies the others of the group in full', async () => {
    const portal = await createPortal(t, await createTenant(t));
    const other = await createPortal(t, await createTenant(t));
    expect(
      await commitGroup(t.deps, [await pending(portal, [{ externalId: 'dup', status: 1, at: ago(600) }], { id: 'msg_first' })]),
    ).toEqual([{ accepted: 1 }]);
    const group = [
      await pending(portal, [{ externalId: 'x', status: 0, at: ago(60) }]),
      // Redelivered: its report (dup offline) must not be applied a second time, nor at all.
      await pending(portal, [{ externalId: 'dup', status: 0, at: ago(30) }], { id: 'msg_first' }),
      // Signed with a secret that is no longer the portal's: refused by the transaction.
      await pending(other, [{ externalId: 'y', status: 1, at: ago(60) }], { secretEnc: await sealedSecretOf(portal) }),
      await pending(other, [{ externalId: 'z', status: 1, at: ago(60) }]),
    ];
    expect(await commitGroup(t.deps, group)).toEqual([{ accepted: 1 }, { accepted: 0, duplicate: true }, REFUSED, { accepted: 1 }]);
    expect((await snapshot(portal)).map((d) => [d.externalId, d.status, d.periods.length])).toEqual([
      ['dup', 1, 1],
      ['x', 0, 1],
    ]);
    expect((await snapshot(other)).map((d) => d.externalId)).toEqual(['z']);
    expect(await countRows(t, 'webhook_messages', portal.id)).toBe(2);
    expect(await countRows(t, 'webhook_messages', other.id)).toBe(1);
  });

  it('fails only the message the database refuses; the others of its group are applied and answered', async () => {
    const portal = await createPortal(t, await createTenant(t));
    const committer = new GroupCommitter<PendingMessage, Outcome>((group) => commitGroup(t.deps, group), {
      maxMessages: 10,
      maxWeight: 100,
      maxInFlight: 1,
    });
    const messages = [
      await pending(portal, [{ externalId: 'good-1', status: 1, at: ago(60) }]),
      // Valid JSON, valid for the schema, but PostgreSQL text cannot hold a NUL character.
      await pending(portal, [{ externalId: 'bad', name: 'nul \u0000 inside', status: 1, at: ago(60) }], { id: 'msg_bad' }),
      await pending(portal, [{ externalId: 'good-2', status: 0, at: ago(60) }]),
    ];
    // Submitted in one turn of the event loop: one group.
    const results = await Promise.allSettled(messages.map((m) => committer.submit(m)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual([{ accepted: 1 }, { accepted: 1 }]);
    expect((await snapshot(portal)).map((d) => d.externalId)).toEqual(['good-1', 'good-2']);
    const [bad] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from webhook_messages where portal_id = ${portal.id} and webhook_id = 'msg_bad'`,
    );
    expect(Number(bad.n)).toBe(0);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { periodPartitions } from '../db/period-partitions.ts';
import { inScope, tenantScope } from '../db/scope.ts';
import { createCast, createPortal, type TestPortal } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { reported, sendWebhook } from '../../test/kits/webhooks/webhook-test-kit.ts';
import { periodPartitionsJob } from './period-partitions.job.ts';
import { runTickOnce } from './scheduler.ts';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let north: TestPortal;
let elsewhere: TestPortal;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
  north = await createPortal(t, cast.tenant, 'North');
  elsewhere = await createPortal(t, cast.other, 'Elsewhere');
});
afterAll(() => t.close());

const monthOf = (d: Date) => `device_status_periods_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
const monthsAfter = (d: Date, n: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 15));

/** Where each period of the portal's devices is stored, in the order they were written. */
const placed = (portal: TestPortal) =>
  queryRows<{ device: string; partition: string; open: boolean }>(
    t.database.db,
    sql`select d.external_id as device, p.tableoid::regclass::text as partition, p.ended_at is null as open
          from device_status_periods p join devices d on d.tenant_id = p.tenant_id and d.id = p.device_id
         where p.tenant_id = ${portal.tenantId} and p.portal_id = ${portal.id}
         order by p.id`,
  );

describe('status history partitions', () => {
  it('keeps open periods in their own partition and moves a closed one into its month, one open period per device', async () => {
    const start = new Date('2026-11-02T10:00:00.000Z');
    t.clock.set(start.toISOString());
    await runTickOnce(t.deps, periodPartitionsJob);
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000).toISOString();
    expect(
      (
        await sendWebhook(
          t,
          north,
          reported([
            { externalId: 'a', status: 1, at: at(0) },
            { externalId: 'b', status: 1, at: at(0) },
          ]),
        )
      ).status,
    ).toBe(202);
    for (let i = 1; i <= 4; i++) {
      t.clock.set(at(i));
      expect((await sendWebhook(t, north, reported([{ externalId: 'a', status: i % 2 === 1 ? 0 : 1, at: at(i) }]))).status).toBe(202);
    }
    const rows = await placed(north);
    expect(rows.filter((r) => r.device === 'a')).toEqual([
      ...Array.from({ length: 4 }, () => ({ device: 'a', partition: monthOf(start), open: false })),
      { device: 'a', partition: 'device_status_periods_open', open: true },
    ]);
    expect(rows.filter((r) => r.device === 'b')).toEqual([{ device: 'b', partition: 'device_status_periods_open', open: true }]);
  });

  it('creates the months ahead as time moves on, once, and moves periods already closed in a new month out of the default partition', async () => {
    const before = await periodPartitions(t.database);
    expect(before.at(-1)).toBe('device_status_periods_open');
    const later = monthsAfter(new Date(), 9);
    // A period closed in a month no partition holds yet (ahead of the months created so far) waits in the default partition.
    t.clock.set(later.toISOString());
    expect((await sendWebhook(t, north, reported([{ externalId: 'a', status: 0, at: later }]))).status).toBe(202);
    t.clock.set(new Date(later.getTime() + 60_000).toISOString());
    expect((await sendWebhook(t, north, reported([{ externalId: 'a', status: 1, at: new Date(later.getTime() + 60_000) }]))).status).toBe(
      202,
    );
    const closedLate = async () =>
      (await placed(north))
        .filter((r) => r.device === 'a' && !r.open)
        .map((r) => r.partition)
        .at(-1);
    expect(before).not.toContain(monthOf(later));
    expect(await closedLate()).toBe('device_status_periods_open');

    await runTickOnce(t.deps, periodPartitionsJob);
    const after = await periodPartitions(t.database);
    for (const n of [0, 1, 2]) expect(after).toContain(monthOf(monthsAfter(later, n)));
    expect(after).not.toContain(monthOf(monthsAfter(later, 3)));
    expect(await closedLate()).toBe(monthOf(later));
    // One open period per device still.
    const open = await queryRows<{ device_id: number; n: number }>(
      t.database.db,
      sql`select device_id, count(*)::int as n from device_status_periods where ended_at is null group by device_id having count(*) <> 1`,
    );
    expect(open).toEqual([]);

    // The next hour's tick finds them there and creates nothing.
    t.clock.set(new Date(later.getTime() + 3_600_000).toISOString());
    await runTickOnce(t.deps, periodPartitionsJob);
    expect(await periodPartitions(t.database)).toEqual(after);
  });

  it('lets the application role read the history through the table only, one tenant at a time', async () => {
    t.clock.set(new Date().toISOString());
    expect((await sendWebhook(t, elsewhere, reported([{ externalId: 'x', status: 0, at: new Date() }]))).status).toBe(202);
    const tenantsSeen = await inScope(t.database.db, tenantScope(cast.tenant.id), (tx) =>
      queryRows<{ tenant_id: number }>(tx, sql`select distinct tenant_id from device_status_periods`),
    );
    expect(tenantsSeen).toEqual([{ tenant_id: cast.tenant.id }]);
    for (const partition of await periodPartitions(t.database)) {
      const refused = await inScope(t.database.db, tenantScope(cast.tenant.id), (tx) =>
        tx.execute(sql.raw(`select tenant_id from "${partition}"`)),
      ).then(
        () => 'read',
        (err: Error & { cause?: Error }) => (err.cause ?? err).message,
      );
      expect([partition, refused]).toEqual([partition, `permission denied for table ${partition}`]);
    }
    const creating = await inScope(t.database.db, tenantScope(cast.tenant.id), (tx) =>
      tx.execute(sql`select add_period_partitions(now() + interval '5 years')`),
    ).then(
      () => 'ran',
      (err: Error & { cause?: Error }) => (err.cause ?? err).message,
    );
    expect(creating).toBe('permission denied for function add_period_partitions');
  });
});

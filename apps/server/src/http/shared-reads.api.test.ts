import { portalEndpoints } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createCast, createPortal, createUser, type TestUser } from '../../test/factories.ts';

/**
 * Identical concurrent GETs share database rounds (shared-reads.ts) through route(): the answers must
 * stay each caller's own (tenant, user) and as fresh as a request run alone.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t);
  await createPortal(t, cast.tenant, 'Alpha North');
  await createPortal(t, cast.other, 'Bravo South');
});
afterAll(() => t.close());

const list = (user: TestUser) => t.call(portalEndpoints.all, { token: user.token });
const names = (body: { data: { list: { name: string }[] } }) => body.data.list.map((p) => p.name);

/** Counts the transactions the routes open (every scoped read is one) while `fn` runs. */
async function countingTransactions<T>(fn: () => Promise<T>): Promise<{ result: T; transactions: number }> {
  const db = t.database.db as Db & { transaction: Db['transaction'] };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to put the method back; it is called with apply(db, ...)
  const original = db.transaction;
  let transactions = 0;
  db.transaction = ((...args: Parameters<Db['transaction']>) => {
    transactions += 1;
    return original.apply(db, args);
  }) as Db['transaction'];
  try {
    return { result: await fn(), transactions };
  } finally {
    db.transaction = original;
  }
}

describe('identical concurrent reads', () => {
  it('share rounds: 20 identical list calls open far fewer than 20 transactions, each answered in full', async () => {
    const { result, transactions } = await countingTransactions(() => Promise.all(Array.from({ length: 20 }, () => list(cast.admin))));
    for (const res of result) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(names(res.body)).toEqual(['Alpha North']);
    }
    expect(transactions).toBeGreaterThanOrEqual(1);
    expect(transactions).toBeLessThanOrEqual(3);
  });

  it('never share across tenants or users: the same URL at once answers each caller its own rows', async () => {
    const callers = [cast.admin, cast.otherAdmin, cast.pm, cast.superAdmin];
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => callers[i % callers.length]).map(async (u) => ({ u, res: await list(u) })),
    );
    for (const { u, res } of answers) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      if (u === cast.otherAdmin) expect(names(res.body)).toEqual(['Bravo South']);
      else if (u === cast.superAdmin) expect(names(res.body).sort()).toEqual(['Alpha North', 'Bravo South']);
      else expect(names(res.body)).toEqual(['Alpha North']);
    }
  });

  it('answer a request from a round started after it arrived: a portal created before the call is in its answer', async () => {
    const reader = await createUser(t, { tenant: cast.tenant, roles: ['Project Manager'] });
    // A round is running for this caller and URL when the portal is created and the next call arrives.
    const running = list(reader);
    await new Promise((r) => setImmediate(r));
    await createPortal(t, cast.tenant, 'Alpha West');
    const after = await list(reader);
    expect(names(after.body)).toContain('Alpha West');
    expect((await running).status).toBe(200);
  });
});

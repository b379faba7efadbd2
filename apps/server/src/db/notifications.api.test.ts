import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDatabase } from '../../test/database.ts';
import type { Database } from './client.ts';
import { preparedExecutor } from './prepared.ts';
import { inScope, tenantScope } from './scope.ts';

let database: Database;
const received: string[] = [];
const channel = 'vigil_test_notifications';
let unlisten: () => Promise<void>;

beforeAll(async () => {
  database = await sharedDatabase();
  unlisten = await database.listen(channel, (payload) => received.push(payload));
});
afterAll(() => unlisten());

/** Notifications reach a listener asynchronously on PostgreSQL (its own connection): wait until `n` arrived, or 5 s. */
async function receivedCount(n: number): Promise<number> {
  const deadline = Date.now() + 5_000;
  while (received.length < n && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return received.length;
}

describe('database notifications (the event bus underneath)', () => {
  it('delivers what a transaction sent only after it commits, in order', async () => {
    received.length = 0;
    await database.db.transaction(async (tx) => {
      await database.notify(channel, ['first', 'second'], tx);
      await database.notify(channel, ['third'], tx);
      // Still inside: nothing delivered before the commit.
      await tx.execute(sql`select 1`);
      expect(received).toEqual([]);
    });
    expect(await receivedCount(3)).toBe(3);
    expect(received).toEqual(['first', 'second', 'third']);
  });

  it('delivers nothing of a transaction that rolled back', async () => {
    received.length = 0;
    await expect(
      database.db.transaction(async (tx) => {
        await database.notify(channel, ['lost'], tx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // A later committed one arrives alone.
    await database.db.transaction((tx) => database.notify(channel, ['kept'], tx));
    expect(await receivedCount(1)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual(['kept']);
  });

  it('finds the transaction through a prepared or scoped executor, and sends at once outside one', async () => {
    received.length = 0;
    await inScope(database.urgentDb, tenantScope(1), async (tx) => {
      await database.notify(channel, ['prepared'], preparedExecutor(database.prepared, tx));
      expect(received).toEqual([]);
    });
    expect(await receivedCount(1)).toBe(1);
    await database.notify(channel, ['outside']);
    expect(await receivedCount(2)).toBe(2);
    expect(received).toEqual(['prepared', 'outside']);
  });

  it("refuses a payload of 8,000 bytes or more with PostgreSQL's error, and the transaction fails", async () => {
    received.length = 0;
    const failure = await database.db
      .transaction((tx) => database.notify(channel, ['x'.repeat(8000)], tx))
      .then(
        () => undefined,
        (err: unknown) => err as { message?: string; code?: string; cause?: { message?: string; code?: string } },
      );
    // drizzle may wrap the driver's error ("Failed query: ...", the driver's error as its cause).
    expect(failure?.cause?.message ?? failure?.message ?? '').toMatch(/payload string too long/);
    expect(failure?.cause?.code ?? failure?.code).toBe('22023');
    await database.db.transaction((tx) => database.notify(channel, ['y'.repeat(7999)], tx));
    expect(await receivedCount(1)).toBe(1);
  });
});

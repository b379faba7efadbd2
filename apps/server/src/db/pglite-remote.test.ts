import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteRemote } from './pglite-remote.ts';

/**
 * The lanes' session time the database's thread reports (pglite-worker.mjs `held`), which the
 * priority gate shares PGlite's one session by (priority-gate.ts `sessionTime`).
 */
let remote: PgliteRemote;
beforeAll(async () => {
  remote = await PgliteRemote.open('memory://');
});
afterAll(() => remote.close());

/** A statement that keeps PGlite busy for a few milliseconds. */
const WORK = 'select count(*) from generate_series(1, 50000)';

const snapshot = () => ({ ...remote.sessionTime });

describe('PgliteRemote sessionTime', () => {
  it('counts an urgent transaction as the urgent lane, from its first statement to its end', async () => {
    const before = snapshot();
    const started = performance.now();
    await remote.transaction(async (tx) => {
      await tx.query(WORK);
      await tx.query(WORK);
    }, true);
    const wall = performance.now() - started;
    const after = snapshot();
    expect(after.urgent - before.urgent).toBeGreaterThan(0);
    expect(after.urgent - before.urgent).toBeLessThanOrEqual(wall);
    expect(after.normal).toBe(before.normal);
  });

  it('counts reads and other transactions as the normal lane', async () => {
    const before = snapshot();
    await remote.readTransaction((tx) => tx.query(WORK));
    const afterRead = snapshot();
    expect(afterRead.normal - before.normal).toBeGreaterThan(0);
    await remote.transaction((tx) => tx.query(WORK));
    const after = snapshot();
    expect(after.normal - afterRead.normal).toBeGreaterThan(0);
    expect(after.urgent).toBe(before.urgent);
  });

  it('leaves out the time a unit waits for the session behind another', async () => {
    // The read waits on the database's thread until the urgent transaction's five statements have run and it has ended.
    let read: Promise<number> | undefined;
    const before = snapshot();
    await remote.transaction(async (tx) => {
      await tx.query(WORK);
      const asked = performance.now();
      read = remote.readTransaction((r) => r.query('select 1')).then(() => performance.now() - asked);
      for (let i = 0; i < 5; i++) await tx.query(WORK);
    }, true);
    const readWaited = await read!;
    const after = snapshot();
    expect(readWaited).toBeGreaterThan(0);
    expect(after.normal - before.normal).toBeLessThan(readWaited);
  });
});

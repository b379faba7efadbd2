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

/**
 * When the database's thread sends a unit's answer (pglite-worker.mjs `handOver`): with `answerEach`
 * as soon as its statement has run, so the first of reads queued together resolves while the others
 * still wait; without it, with every answer of the thread's turn (the reads queued behind the lock
 * run in one turn and resolve together). Judged by state, not by time: each batch of answers carries
 * the session's time held so far (`sessionTime`), so a read that resolves with less of it than the
 * next one was answered before the next one's statement ran.
 */
describe('PgliteRemote answers', () => {
  const LONG = 'select count(*) from generate_series(1, 100000)';

  /** The session's time held so far as each of four reads queued together resolved, in order. */
  async function heldAtAnswers(answerEach: boolean): Promise<number[]> {
    const own = await PgliteRemote.open('memory://', { answerEach });
    try {
      const seen: number[] = [];
      await Promise.all([1, 2, 3, 4].map(() => own.readTransaction((tx) => tx.query(LONG)).then(() => seen.push(own.sessionTime.normal))));
      return seen;
    } finally {
      await own.close();
    }
  }

  it('sends each answer as its statement ends with answerEach', async () => {
    const seen = await heldAtAnswers(true);
    // Each answer came before the next read's statement had held the session.
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
  });

  it('sends the answers of one turn together without it', async () => {
    const seen = await heldAtAnswers(false);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]).toBeGreaterThan(0);
  });
});

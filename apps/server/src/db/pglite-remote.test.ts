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
 * still run; without it, with every answer of the thread's turn (the reads queued behind the lock
 * run in one turn and resolve together). Judged against one read's own time on the same thread.
 */
describe('PgliteRemote answers', () => {
  /** A statement of some tens of milliseconds, so that the answers' spacing stands out of any pause. */
  const LONG = 'select count(*) from generate_series(1, 100000)';

  /** One read's time, and how long after the first of four reads queued together the last resolved. */
  async function spread(answerEach: boolean): Promise<{ one: number; last: number }> {
    const own = await PgliteRemote.open('memory://', { answerEach });
    try {
      // One read's time: the least of three, so that a pause of the machine does not stretch it.
      let one = Infinity;
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await own.readTransaction((tx) => tx.query(LONG));
        one = Math.min(one, performance.now() - started);
      }
      const times: number[] = [];
      await Promise.all([1, 2, 3, 4].map(() => own.readTransaction((tx) => tx.query(LONG)).then(() => times.push(performance.now()))));
      return { one, last: times[3] - times[0] };
    } finally {
      await own.close();
    }
  }

  it('sends each answer as its statement ends with answerEach', async () => {
    const { one, last } = await spread(true);
    // Three statements ran between the first answer and the last.
    expect(last).toBeGreaterThan(one * 1.5);
  });

  it('sends the answers of one turn together without it', async () => {
    const { one, last } = await spread(false);
    expect(last).toBeLessThan(one / 2);
  });
});

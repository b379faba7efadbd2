import { describe, expect, it } from 'vitest';
import { SharedReads } from './shared-reads.ts';

/** One turn of the event loop: a round that was due has started. */
const turn = () => new Promise((r) => setImmediate(r));

/** A read whose rounds the test ends by hand, answering the "database" value at the round's start. */
function controlledReads() {
  const state = { value: 0, started: 0 };
  const ends: (() => void)[] = [];
  const read = () => {
    state.started += 1;
    const seen = state.value;
    return new Promise<number>((resolve) => ends.push(() => resolve(seen)));
  };
  const endRound = async () => {
    ends.shift()!();
    // Let the settled round hand over to the waiting one: its start is scheduled once the round's
    // promise callbacks have run, so after the turn that was already queued.
    await turn();
    await turn();
  };
  return { state, read, endRound };
}

describe('SharedReads', () => {
  it('runs a lone read on the next turn, and forgets the key when it is over', async () => {
    const shared = new SharedReads<number>();
    const { state, read, endRound } = controlledReads();
    const answer = shared.run('k', read);
    expect(state.started).toBe(0);
    await turn();
    expect(state.started).toBe(1);
    await endRound();
    await expect(answer).resolves.toBe(0);
    expect(shared.size).toBe(0);
  });

  it('serves everyone who arrives before a round starts with that round', async () => {
    const shared = new SharedReads<number>();
    const { state, read, endRound } = controlledReads();
    const answers = [shared.run('k', read), shared.run('k', read), shared.run('k', read)];
    await turn();
    expect(state.started).toBe(1);
    await endRound();
    await expect(Promise.all(answers)).resolves.toEqual([0, 0, 0]);
    expect(state.started).toBe(1);
    expect(shared.size).toBe(0);
  });

  it('serves everyone who arrives during a round with one next round', async () => {
    const shared = new SharedReads<number>();
    const { state, read, endRound } = controlledReads();
    const first = shared.run('k', read);
    await turn();
    const joiners = [shared.run('k', read), shared.run('k', read), shared.run('k', read)];
    expect(state.started).toBe(1);
    await endRound();
    expect(state.started).toBe(2);
    await endRound();
    await expect(first).resolves.toBe(0);
    await expect(Promise.all(joiners)).resolves.toEqual([0, 0, 0]);
    expect(state.started).toBe(2);
    expect(shared.size).toBe(0);
  });

  it('never answers a joiner from a round that started before it arrived', async () => {
    const shared = new SharedReads<number>();
    const { state, read, endRound } = controlledReads();
    const first = shared.run('k', read);
    await turn();
    // A write commits after the first round took its snapshot; then a request arrives.
    state.value = 1;
    const later = shared.run('k', read);
    await endRound();
    await endRound();
    await expect(first).resolves.toBe(0);
    await expect(later).resolves.toBe(1);
  });

  it('keeps keys apart', async () => {
    const shared = new SharedReads<string>();
    const a = shared.run('tenant 1', () => Promise.resolve('one'));
    const b = shared.run('tenant 2', () => Promise.resolve('two'));
    await expect(Promise.all([a, b])).resolves.toEqual(['one', 'two']);
  });

  it('gives a failed round its error, and still runs the round waiting behind it', async () => {
    const shared = new SharedReads<number>();
    let calls = 0;
    let failFirst!: (e: Error) => void;
    const first = shared.run('k', () => new Promise<number>((_, reject) => (failFirst = reject)));
    await turn();
    const joiner = shared.run('k', () => {
      calls += 1;
      return Promise.resolve(7);
    });
    failFirst(new Error('statement timeout'));
    await expect(first).rejects.toThrow('statement timeout');
    await expect(joiner).resolves.toBe(7);
    expect(calls).toBe(1);
    expect(shared.size).toBe(0);
  });

  it('gives every joiner of a failed round the same error', async () => {
    const shared = new SharedReads<number>();
    const { read, endRound } = controlledReads();
    const first = shared.run('k', read);
    await turn();
    const failing = () => Promise.reject(new Error('boom'));
    const joiners = Promise.allSettled([shared.run('k', failing), shared.run('k', failing)]);
    await endRound();
    await expect(first).resolves.toBe(0);
    const outcomes = await joiners;
    expect(outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message)).toEqual(['boom', 'boom']);
    expect(shared.size).toBe(0);
  });
});

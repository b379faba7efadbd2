import { describe, expect, it } from 'vitest';
import { GroupCommitter, type Groupable, type GroupLimits } from './group-commit.ts';

interface Item extends Groupable {
  name: string;
}

const item = (name: string, opts: Partial<Item> = {}): Item => ({ name, key: name, weight: 1, alone: false, ...opts });

/** A commit that records each group and answers each item's name, failing groups that contain `bad`. */
function recorder(limits: GroupLimits = { maxMessages: 100, maxWeight: 1000, maxInFlight: 1 }) {
  const groups: string[][] = [];
  const committer = new GroupCommitter<Item, string>(async (group) => {
    groups.push(group.map((i) => i.name));
    await new Promise((r) => setTimeout(r, 5));
    if (group.some((i) => i.name === 'bad')) throw new Error('bad data');
    return group.map((i) => `ok ${i.name}`);
  }, limits);
  return { groups, committer };
}

describe('GroupCommitter', () => {
  it('applies messages that arrive together in one group, and later arrivals in the next one', async () => {
    const { groups, committer } = recorder();
    const first = ['a', 'b', 'c'].map((n) => committer.submit(item(n)));
    await new Promise((r) => setTimeout(r, 1));
    const later = ['d', 'e'].map((n) => committer.submit(item(n)));
    expect(await Promise.all([...first, ...later])).toEqual(['ok a', 'ok b', 'ok c', 'ok d', 'ok e']);
    expect(groups).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('never puts two messages with one key (a redelivered id) in one group, nor a lone message with others', async () => {
    const { groups, committer } = recorder();
    await Promise.all([
      committer.submit(item('a1', { key: 'a' })),
      committer.submit(item('a2', { key: 'a' })),
      committer.submit(item('r', { alone: true })),
      committer.submit(item('b')),
    ]);
    expect(groups).toEqual([['a1', 'b'], ['a2'], ['r']]);
  });

  it('bounds a group by messages and by weight', async () => {
    const { groups, committer } = recorder({ maxMessages: 2, maxWeight: 10, maxInFlight: 1 });
    await Promise.all([item('a'), item('b'), item('c'), item('big', { weight: 10 }), item('d')].map((i) => committer.submit(i)));
    expect(groups).toEqual([['a', 'b'], ['c', 'd'], ['big']]);
  });

  it('shares a heavy queue among the free slots (groups of at least splitWeight), and keeps a light one whole', async () => {
    const limits = { maxMessages: 100, maxWeight: 1000, maxInFlight: 4, splitWeight: 200 };
    const heavy = recorder(limits);
    // 10 messages of 100 devices: each group takes its share of what is still queued among the slots still free
    // (1,000 / 4, 800 / 3, 600 / 2, then the rest).
    await Promise.all(Array.from({ length: 10 }, (_, i) => heavy.committer.submit(item(`h${i}`, { weight: 100 }))));
    expect(heavy.groups).toEqual([
      ['h0', 'h1'],
      ['h2', 'h3'],
      ['h4', 'h5', 'h6'],
      ['h7', 'h8', 'h9'],
    ]);
    const medium = recorder(limits);
    // 500 queued: two parts (floor(500 / 200)) of 250.
    await Promise.all(Array.from({ length: 5 }, (_, i) => medium.committer.submit(item(`m${i}`, { weight: 100 }))));
    expect(medium.groups).toEqual([
      ['m0', 'm1'],
      ['m2', 'm3', 'm4'],
    ]);
    const light = recorder(limits);
    await Promise.all(Array.from({ length: 50 }, (_, i) => light.committer.submit(item(`l${i}`))));
    expect(light.groups).toHaveLength(1);
  });

  it('keeps each message all or nothing: a failing group is retried message by message, so only the bad one fails', async () => {
    const { groups, committer } = recorder();
    const results = await Promise.allSettled(['a', 'bad', 'b'].map((n) => committer.submit(item(n))));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['ok a', 'bad data', 'ok b']);
    expect(groups).toEqual([['a', 'bad', 'b'], ['a'], ['bad'], ['b']]);
  });

  it('settles no caller before its group committed', async () => {
    let committed = false;
    const committer = new GroupCommitter<Item, boolean>(
      async (group) => {
        await new Promise((r) => setTimeout(r, 10));
        committed = true;
        return group.map(() => true);
      },
      { maxMessages: 10, maxWeight: 10, maxInFlight: 1 },
    );
    await committer.submit(item('a'));
    expect(committed).toBe(true);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { claimTick, oneAtATime, pruneJobRuns, runTickOnce, tickOf, type Job } from '../src/jobs/scheduler.ts';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('job scheduler', () => {
  it('runs a tick once however often it is attempted, and the next tick again', async () => {
    let runs = 0;
    const job: Job = { name: 'counting', everyMs: 60_000, run: () => Promise.resolve(void runs++) };
    t.clock.set('2026-11-22T10:00:10.000Z');
    expect(await Promise.all([runTickOnce(t.deps, job), runTickOnce(t.deps, job), runTickOnce(t.deps, job)])).toEqual(
      expect.arrayContaining([true, false, false]),
    );
    expect(runs).toBe(1);
    t.clock.advance(60_000);
    expect(await runTickOnce(t.deps, job)).toBe(true);
    expect(runs).toBe(2);
    expect(tickOf(new Date('2026-11-22T10:00:59.999Z'), 60_000).toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });

  it('prunes claims older than a day by the clock, keeping recent ones', async () => {
    t.clock.set('2026-11-22T10:00:00.000Z');
    await t.database.db.execute(
      sql`insert into job_runs (job, tick, created_at) values ('old', 'a', '2026-11-20T09:00:00Z'), ('recent', 'b', '2026-11-22T09:00:00Z')`,
    );
    expect(await claimTick(t.deps, 'recent', new Date('2026-11-22T09:30:00Z'))).toBe(true);
    expect(await pruneJobRuns(t.deps)).toBe(1);
    const left = await queryRows<{ job: string }>(t.database.db, sql`select job from job_runs where job in ('old', 'recent') order by job`);
    expect(left.map((r) => r.job)).toEqual(['recent', 'recent']);
  });

  it('starts no second run of a job in this process while its previous run is still going', async () => {
    let started = 0;
    let finish!: () => void;
    const attempt = oneAtATime(() => {
      started += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const first = attempt();
    expect(first).toBeDefined();
    expect(attempt()).toBeUndefined();
    expect(attempt()).toBeUndefined();
    expect(started).toBe(1);
    finish();
    await first;
    const next = attempt();
    expect(next).toBeDefined();
    expect(started).toBe(2);
    finish();
    await next;
  });
});

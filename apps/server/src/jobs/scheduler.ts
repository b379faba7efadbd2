import type { AppDeps } from '../deps.ts';
import { deleteJobRunsBefore, finishJobRun, insertJobRun } from './job-runs.repository.ts';

export interface Job {
  /** Unique job name, e.g. 'offline-sweep'. */
  name: string;
  /** Tick length; each tick runs at most once across every process. */
  everyMs: number;
  run(deps: AppDeps, tickStart: Date): Promise<void>;
}

/**
 * Claims one tick of a job for this process: inserting (job, tick) succeeds for
 * exactly one process however many run on the database (PostgreSQL or PGlite),
 * so a tick runs once. Returns false when another process has it.
 */
export async function claimTick(deps: AppDeps, job: string, tickStart: Date): Promise<boolean> {
  const rows = await insertJobRun(deps.database.db, job, tickStart);
  return rows.length === 1;
}

export const tickOf = (now: Date, everyMs: number) => new Date(Math.floor(now.getTime() / everyMs) * everyMs);

/** Runs the job for the current tick if no process has claimed it yet; returns whether it ran here. */
export async function runTickOnce(deps: AppDeps, job: Job): Promise<boolean> {
  const tick = tickOf(deps.clock.now(), job.everyMs);
  if (!(await claimTick(deps, job.name, tick))) return false;
  await job.run(deps, tick);
  await finishJobRun(deps.database.db, job.name, tick);
  return true;
}

/**
 * `attempt` wrapped so that a call while the previous one is still running does nothing (answers
 * undefined). A job run longer than its timer (the first offline-alerts tick after a backlog took
 * 12-21 s at L) would otherwise be followed by one waiting run per timer, each holding a database
 * connection; the job's next run after it catches up with what it skipped.
 */
export function oneAtATime(attempt: () => Promise<unknown>): () => Promise<unknown> | undefined {
  let current: Promise<unknown> | undefined;
  return () => {
    if (current) return undefined;
    const p = attempt().finally(() => {
      current = undefined;
    });
    current = p;
    return p;
  };
}

/**
 * Starts the timers for the given jobs (unless deps.jobs is false, as in tests,
 * which call runTickOnce with a fake clock). Returns the stop function.
 */
export function scheduleJobs(deps: AppDeps, jobs: Job[]): () => Promise<void> {
  if (!deps.jobs) return async () => {};
  const running = new Set<Promise<unknown>>();
  const timers = jobs.map((job) => {
    const attempt = oneAtATime(() => runTickOnce(deps, job).catch((err) => deps.log.error({ err, job: job.name }, 'job failed')));
    return setInterval(
      () => {
        const p = attempt();
        if (!p) return;
        running.add(p);
        void p.finally(() => running.delete(p));
      },
      Math.min(job.everyMs, 5_000),
    );
  });
  return async () => {
    timers.forEach(clearInterval);
    await Promise.allSettled([...running]);
  };
}

/** Old claims are only bookkeeping; keep a day of them. Returns how many were removed. */
export async function pruneJobRuns(deps: AppDeps): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - 86_400_000);
  const rows = await deleteJobRunsBefore(deps.database.db, cutoff);
  return rows.length;
}

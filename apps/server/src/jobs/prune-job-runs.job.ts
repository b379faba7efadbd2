import { pruneJobRuns, type Job } from './scheduler.ts';

/** Tick claims are bookkeeping only; without pruning job_runs grows by thousands of rows a day. */
export const pruneJobRunsJob: Job = {
  name: 'prune-job-runs',
  everyMs: 3_600_000,
  run: async (deps) => {
    await pruneJobRuns(deps);
  },
};

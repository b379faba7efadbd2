import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';

/** Claims (job, tick): one row for the process whose insert wins, none for the others. */
export const insertJobRun = (executor: Executor, job: string, tickStart: Date) =>
  queryRows<{ job: string }>(
    executor,
    sql`insert into job_runs (job, tick) values (${job}, ${tickStart.toISOString()}) on conflict do nothing returning job`,
  );

export async function finishJobRun(executor: Executor, job: string, tick: Date): Promise<void> {
  await executor.execute(sql`update job_runs set finished_at = now() where job = ${job} and tick = ${tick.toISOString()}`);
}

export const deleteJobRunsBefore = (executor: Executor, cutoff: Date) =>
  queryRows<{ job: string }>(executor, sql`delete from job_runs where created_at < ${cutoff.toISOString()} returning job`);

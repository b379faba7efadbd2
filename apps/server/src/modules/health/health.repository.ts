import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/** One round trip to the database (readyz): throws when it is not reachable or not within `timeoutMs`. */
export async function pingDatabase(executor: Executor, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the database did not answer in time')), timeoutMs);
  });
  try {
    await Promise.race([executor.execute(sql`select 1`), late]);
  } finally {
    clearTimeout(timer);
  }
}

import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/** One round trip to the database (readyz): throws when it is not reachable. */
export async function pingDatabase(executor: Executor): Promise<void> {
  await executor.execute(sql`select 1`);
}

import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * Accepted webhook ids only need to outlive the 5-minute timestamp window (an older
 * replay is refused by its signed timestamp anyway); a day of them is kept for
 * diagnosis, then pruned hourly (jobs/prune-webhook-messages.job.ts) so the table does
 * not grow with traffic.
 */
export const WEBHOOK_ID_RETENTION_MS = 86_400_000;

/** Forgets the accepted webhook ids older than the retention. */
export async function pruneWebhookMessages(tx: Executor, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - WEBHOOK_ID_RETENTION_MS).toISOString();
  await tx.execute(sql`delete from webhook_messages where created_at < ${cutoff}::timestamptz`);
}

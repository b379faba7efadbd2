import { sql } from 'drizzle-orm';
import { allTenants, inScope } from '../../db/scope.ts';
import type { Job } from '../../jobs/scheduler.ts';

/**
 * Accepted webhook ids only need to outlive the 5-minute timestamp window (an older
 * replay is refused by its signed timestamp anyway); a day of them is kept for
 * diagnosis, then pruned hourly so the table does not grow with traffic.
 */
export const WEBHOOK_ID_RETENTION_MS = 86_400_000;

export const pruneWebhookMessagesJob: Job = {
  name: 'webhook-messages-prune',
  everyMs: 3_600_000,
  run: async (deps) => {
    const cutoff = new Date(deps.clock.now().getTime() - WEBHOOK_ID_RETENTION_MS).toISOString();
    await inScope(deps.database.db, allTenants, (tx) => tx.execute(sql`delete from webhook_messages where created_at < ${cutoff}::timestamptz`));
  },
};

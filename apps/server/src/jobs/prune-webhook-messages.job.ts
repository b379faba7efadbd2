import { allTenants, inScope } from '../db/scope.ts';
import { pruneWebhookMessages } from '../modules/webhooks/index.ts';
import type { Job } from './scheduler.ts';

/** Hourly, the accepted webhook ids older than a day (modules/webhooks/prune-messages.repository.ts). */
export const pruneWebhookMessagesJob: Job = {
  name: 'webhook-messages-prune',
  everyMs: 3_600_000,
  run: async (deps) => {
    const now = deps.clock.now();
    await inScope(deps.database.db, allTenants, (tx) => pruneWebhookMessages(tx, now));
  },
};

/** What jobs may use of webhooks: the pruning of accepted webhook ids. */
export { pruneWebhookMessages, WEBHOOK_ID_RETENTION_MS } from './prune-messages.repository.ts';

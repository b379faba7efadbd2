/** What other parts may use of notifications: the default channel of a new tenant, the announcer and sender. */
export { createDefaultChannel, insertChannelAs } from './channels.service.ts';
export { announce, sendDue, sendAllDue, MAX_ATTEMPTS, CLAIM_MS, retryDelayMs } from './deliveries.service.ts';

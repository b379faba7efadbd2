import { randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks, decisions.md §4). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

import { randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks, docs/decisions.md 23). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

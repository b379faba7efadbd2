import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf } from './envelope.ts';
import { LIMITS } from './enums.ts';

/**
 * The portal webhook (docs/decisions.md 23-24): a device cloud posts signed messages
 * (Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`).
 * The body is validated with these schemas only after the signature was checked
 * over the raw bytes; the first failing path is named in the 400 answer.
 */
export const WEBHOOK_MSG = {
  /** The one answer for a bad/missing signature, a stale or future timestamp and an unknown portal. */
  unauthorized: 'Webhook signature verification failed.',
  invalidJson: 'body: must be valid JSON',
} as const;

const text = (field: string, max: number, min = 1) =>
  z
    .string({ error: `${field} must be a string` })
    .min(min, `${field} must not be empty`)
    .max(max, `${field} must be at most ${max} characters`);

export const deviceReport = z.strictObject({
  externalId: text('externalId', 200),
  name: text('name', 200),
  deviceType: z
    .number({ error: 'deviceType must be an integer from 0 to 4' })
    .int('deviceType must be an integer from 0 to 4')
    .min(0, 'deviceType must be an integer from 0 to 4')
    .max(4, 'deviceType must be an integer from 0 to 4'),
  deviceModel: text('deviceModel', 200, 0),
  status: z.union([z.literal(0), z.literal(1)], { error: 'status must be 0 (offline) or 1 (online)' }),
  at: z.iso.datetime({ offset: true, error: 'at must be an ISO 8601 timestamp with a time zone (e.g. 2026-11-22T06:00:00Z)' }),
});
export type DeviceReport = z.infer<typeof deviceReport>;

/** Standard Webhooks recommends a `timestamp` in the payload too; accepted, not used. */
const payloadTimestamp = z.string().max(64).optional();

export const devicesReportedMessage = z.strictObject({
  type: z.literal('devices.reported'),
  timestamp: payloadTimestamp,
  data: z.strictObject({
    devices: z
      .array(deviceReport, { error: 'devices must be an array' })
      .min(1, 'devices must hold at least 1 device')
      .max(LIMITS.webhookMaxDevices, `devices must hold at most ${LIMITS.webhookMaxDevices} devices`),
  }),
});

export const deviceRemovedMessage = z.strictObject({
  type: z.literal('device.removed'),
  timestamp: payloadTimestamp,
  data: z.strictObject({ externalId: text('externalId', 200) }),
});

export const webhookMessage = z.discriminatedUnion('type', [devicesReportedMessage, deviceRemovedMessage], {
  error: 'type must be "devices.reported" or "device.removed"',
});
export type WebhookMessage = z.infer<typeof webhookMessage>;

/** 202 `{accepted: N}` once committed; 200 `{accepted: 0, duplicate: true}` for an already-accepted webhook-id. */
export const webhookAccepted = z.object({
  accepted: z.number().int(),
  duplicate: z.boolean().optional(),
});

export const webhookEndpoints = {
  portal: endpoint({
    method: 'POST',
    path: '/v0/webhooks/portals/:id',
    summary: 'Signed device reports from the portal’s device cloud (Standard Webhooks)',
    tag: 'webhooks',
    // Any text: a malformed id must get the same 401 as an unknown portal, not a 400.
    params: z.strictObject({ id: z.string().max(64) }),
    response: dataOf(webhookAccepted),
    status: 202,
  }),
};

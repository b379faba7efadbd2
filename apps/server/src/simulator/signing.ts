import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** One device's report in a `devices.reported` message (docs/decisions.md 24). */
export interface DeviceReportBody {
  externalId: string;
  name: string;
  deviceType: number;
  deviceModel: string;
  status: 0 | 1;
  at: string;
}

export interface SignedWebhook {
  id: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Builds and signs a Standard Webhooks message with the portal's `whsec_` secret
 * (headers webhook-id, webhook-timestamp, webhook-signature), using the reference library.
 */
export function signWebhook(secret: string, payload: unknown, opts: { id?: string; timestamp?: Date } = {}): SignedWebhook {
  const id = opts.id ?? `msg_${randomUUID()}`;
  const timestamp = opts.timestamp ?? new Date();
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const signature = new Webhook(secret).sign(id, timestamp, body);
  return {
    id,
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}

export const devicesReported = (devices: DeviceReportBody[]) => ({ type: 'devices.reported', data: { devices } });
export const deviceRemoved = (externalId: string) => ({ type: 'device.removed', data: { externalId } });

/** The webhook URL of a portal on a server (docs/decisions.md 23). */
export const webhookUrlOf = (baseUrl: string, portalId: number) => `${baseUrl.replace(/\/$/, '')}/v0/webhooks/portals/${portalId}`;

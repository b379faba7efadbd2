import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SeededPortal } from '../seed.ts';

export interface DeviceReport {
  externalId: string;
  name: string;
  deviceType: number;
  deviceModel: string;
  status: 0 | 1;
  at: string;
}

/** A devices.reported message signed per Standard Webhooks with the portal's secret. */
export function signedReport(portal: SeededPortal, devices: DeviceReport[]): { path: string; headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ type: 'devices.reported', data: { devices } });
  const id = `msg_${randomUUID()}`;
  const now = new Date();
  const signature = new Webhook(portal.secret).sign(id, now, body);
  return {
    path: `/v0/webhooks/portals/${portal.id}`,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
  };
}

/**
 * `count` reports for devices dev-1.. of a portal (the seeded external ids; past the seeded
 * count they are new devices, created as inventory), all with one status and `at` = now.
 */
export function reportsFor(firstIndex: number, count: number, status: 0 | 1): DeviceReport[] {
  const at = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => {
    const n = firstIndex + i;
    return { externalId: `dev-${n}`, name: `Device ${n}`, deviceType: n % 5, deviceModel: `Model ${n % 7}`, status, at };
  });
}

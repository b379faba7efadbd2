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
export function signedReport(
  portal: SeededPortal,
  devices: DeviceReport[],
): { path: string; headers: Record<string, string>; body: string } {
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
 * `count` reports for devices dev-<firstIndex>.. of a portal (the seeded external ids; past the
 * seeded count they are new devices, created as inventory), with `at` = now and either one status
 * for all or each device's own (a function of its index).
 */
export function reportsFor(firstIndex: number, count: number, status: 0 | 1 | ((index: number) => 0 | 1)): DeviceReport[] {
  const at = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => {
    const n = firstIndex + i;
    const s = typeof status === 'function' ? status(n) : status;
    return { externalId: deviceExternalId(n), name: `Device ${n}`, deviceType: n % 5, deviceModel: `Model ${n % 7}`, status: s, at };
  });
}

/** The external id of a portal's n-th device, as seeded (dev-1, dev-2, ...). */
export function deviceExternalId(n: number): string {
  return `dev-${n}`;
}

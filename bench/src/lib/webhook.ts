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
export function reportsFor(
  portalId: number,
  firstIndex: number,
  count: number,
  status: 0 | 1 | ((index: number) => 0 | 1),
): DeviceReport[] {
  const at = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => {
    const n = firstIndex + i;
    const s = typeof status === 'function' ? status(n) : status;
    return { externalId: deviceExternalId(n), ...seededInventory(portalId, n), status: s, at };
  });
}

/**
 * A portal's n-th device's name, type and model as the seed wrote them (bench/src/seed.ts), so a
 * report rewrites nothing of its inventory. Reports that renamed every seeded device made each
 * device's first report since the seed rewrite its row outside HOT (its name and type are indexed)
 * and halved the rate of a run of first reports at L (docs/performance.md, Known limits,
 * "Ingestion at L"); devices past the seeded count are created with the same.
 */
export function seededInventory(portalId: number, n: number): { name: string; deviceType: number; deviceModel: string } {
  return { name: `Device ${portalId}-${n}`, deviceType: n % 5, deviceModel: `Model ${n % 7}` };
}

/** The external id of a portal's n-th device, as seeded (dev-1, dev-2, ...). */
export function deviceExternalId(n: number): string {
  return `dev-${n}`;
}

import { DEVICE_STATUS } from '@vigil/contracts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { TOPICS, type DeviceStatusEvent } from '../../events/topics.ts';

/** Ids per event, so one NOTIFY payload stays well under PostgreSQL's 8 kB limit. */
export const IDS_PER_EVENT = 500;

export interface DeviceStatusChange {
  id: number;
  /** The device's status after the change: 1 came online, 0 went offline. */
  status: number;
  /** ISO time the change took effect. */
  at: string;
}

/**
 * The `devices.status` events of one portal's changes. When a device changed more than once,
 * only its last change counts. Big changes are split into several events of at most
 * IDS_PER_EVENT ids (subscribers recount from the database, so how the ids are split does not
 * matter to them).
 */
export function statusEvents(
  deps: AppDeps,
  portal: { tenantId: number; portalId: number },
  changes: DeviceStatusChange[],
  extra: { removed?: number[] } = {},
): DeviceStatusEvent[] {
  const last = new Map<number, DeviceStatusChange>();
  for (const change of changes) last.set(change.id, change);
  const finals = [...last.values()];
  const removed = extra.removed ?? [];
  if (finals.length === 0 && removed.length === 0) return [];
  const events: DeviceStatusEvent[] = [];
  for (let i = 0; i < Math.max(finals.length, 1); i += IDS_PER_EVENT) {
    const chunk = finals.slice(i, i + IDS_PER_EVENT);
    const at = chunk.reduce((max, c) => (c.at > max ? c.at : max), chunk[0]?.at ?? deps.clock.now().toISOString());
    events.push({
      tenantId: portal.tenantId,
      portalId: portal.portalId,
      offline: chunk.filter((c) => c.status === DEVICE_STATUS.offline).map((c) => c.id),
      online: chunk.filter((c) => c.status === DEVICE_STATUS.online).map((c) => c.id),
      at,
      ...(i === 0 && removed.length > 0 && { removed }),
    });
  }
  return events;
}

/** Delivers the events at commit of `tx`, in one statement however many portals a group commit touched. */
export async function publishStatusEvents(deps: AppDeps, tx: Executor, events: DeviceStatusEvent[]): Promise<void> {
  await deps.bus.publishAll(TOPICS.deviceStatus, events, tx);
}

/** Publishes `devices.status` for one portal, delivered at commit of `tx` (statusEvents, then publishStatusEvents). */
export async function publishStatusChanges(
  deps: AppDeps,
  tx: Executor,
  portal: { tenantId: number; portalId: number },
  changes: DeviceStatusChange[],
  extra: { removed?: number[] } = {},
): Promise<void> {
  await publishStatusEvents(deps, tx, statusEvents(deps, portal, changes, extra));
}

import type { ServerResponse } from 'node:http';
import type { LiveEvent } from '@vigil/contracts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { TOPICS, type AlertOpenedEvent, type DeviceStatusEvent } from '../../events/topics.ts';
import { portalLiveState } from './live-events.repository.ts';

/** Keep-alive comment period (proxies drop idle streams). */
export const KEEP_ALIVE_MS = 15_000;
/** A client that does not read: once this much is queued for it, it is dropped (memory stays bounded). */
const MAX_BUFFERED_BYTES = 64 * 1024;

/** One connected EventSource. `tenantId` undefined: superAdmin, sees every tenant. */
export interface StreamClient {
  tenantId: number | undefined;
  raw: ServerResponse;
  /** Messages held until the connect snapshot is written, so nothing arrives before it. */
  pending: string[] | null;
}

export const sseMessage = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

interface PendingChange {
  tenantId: number;
  portalId: number;
  offline: Set<number>;
  online: Set<number>;
  at: string;
}

/**
 * The process-wide fan-out of live events: ONE bus subscription per topic, an in-memory
 * registry of clients keyed by tenant, one keep-alive timer for all. Per event, one query
 * for the changed portal and one serialized message written to that tenant's clients and
 * the superAdmin's: O(subscribers of that tenant). Changes arriving in a burst are merged
 * per portal and processed in order, so a flood of webhooks cannot pile up queries.
 */
export class LiveHub {
  private readonly byTenant = new Map<number, Set<StreamClient>>();
  private readonly everyTenant = new Set<StreamClient>();
  private readonly queue = new Map<string, PendingChange>();
  private draining = false;
  private unsubscribers: (() => void)[] = [];
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(private readonly deps: AppDeps) {}

  get size(): number {
    let n = this.everyTenant.size;
    for (const set of this.byTenant.values()) n += set.size;
    return n;
  }

  start(): void {
    this.unsubscribers = [
      this.deps.bus.subscribe(TOPICS.deviceStatus, (e) => this.onDeviceStatus(e as DeviceStatusEvent)),
      this.deps.bus.subscribe(TOPICS.alertOpened, (e) => this.onAlertOpened(e as AlertOpenedEvent)),
    ];
    this.keepAlive = setInterval(() => this.broadcastAll(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  add(client: StreamClient): void {
    if (client.tenantId === undefined) this.everyTenant.add(client);
    else {
      let set = this.byTenant.get(client.tenantId);
      if (!set) this.byTenant.set(client.tenantId, (set = new Set()));
      set.add(client);
    }
  }

  remove(client: StreamClient): void {
    if (client.tenantId === undefined) this.everyTenant.delete(client);
    else {
      const set = this.byTenant.get(client.tenantId);
      set?.delete(client);
      if (set?.size === 0) this.byTenant.delete(client.tenantId);
    }
  }

  /** Writes the snapshot, then whatever arrived while it was being read. */
  open(client: StreamClient, snapshot: string): void {
    const held = client.pending ?? [];
    client.pending = null;
    this.write(client, snapshot + held.join(''));
  }

  /** Ends every stream (server shutdown) and drops the subscriptions. */
  stop(): void {
    this.unsubscribers.forEach((u) => u());
    this.unsubscribers = [];
    clearInterval(this.keepAlive);
    for (const client of [...this.everyTenant, ...[...this.byTenant.values()].flatMap((s) => [...s])]) client.raw.end();
    this.everyTenant.clear();
    this.byTenant.clear();
  }

  private hasListeners(tenantId: number): boolean {
    return this.everyTenant.size > 0 || (this.byTenant.get(tenantId)?.size ?? 0) > 0;
  }

  private onDeviceStatus(event: DeviceStatusEvent): void {
    if (!this.hasListeners(event.tenantId)) return;
    const key = `${event.tenantId}:${event.portalId}`;
    let change = this.queue.get(key);
    if (!change) this.queue.set(key, (change = { tenantId: event.tenantId, portalId: event.portalId, offline: new Set(), online: new Set(), at: event.at }));
    // A device that flips twice within one merged change keeps only its latest direction.
    for (const id of event.offline ?? []) (change.online.delete(id), change.offline.add(id));
    for (const id of event.online ?? []) (change.offline.delete(id), change.online.add(id));
    change.at = event.at;
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.size > 0) {
        const [key, change] = this.queue.entries().next().value as [string, PendingChange];
        this.queue.delete(key);
        await this.pushChange(change).catch((err) => this.deps.log.error({ err }, 'live events: could not push a device change'));
      }
    } finally {
      this.draining = false;
    }
  }

  private async pushChange(change: PendingChange): Promise<void> {
    const state = await inScope(this.deps.database.db, allTenants, (tx) => portalLiveState(tx, change.tenantId, change.portalId));
    if (!state) return;
    const row: LiveEvent | null =
      state.offlineSince === null
        ? null
        : { customerId: state.customerId, customerName: state.customerName, tenantName: state.tenantName, offlineCount: state.offlineCount, offlineSince: state.offlineSince };
    const text =
      sseMessage('devices', {
        customerId: state.customerId,
        offlineCount: state.offlineCount,
        onlineCount: state.onlineCount,
        offline: [...change.offline],
        online: [...change.online],
        at: change.at,
      }) + sseMessage('live-events', { customerId: state.customerId, row });
    this.broadcast(change.tenantId, text);
  }

  private onAlertOpened(event: AlertOpenedEvent): void {
    if (!this.hasListeners(event.tenantId)) return;
    this.broadcast(
      event.tenantId,
      sseMessage('alert', { alertId: event.alertId, customerId: event.portalId, customerName: event.customerName, alertType: event.alertType, offlineCount: event.offlineCount }),
    );
  }

  private broadcast(tenantId: number, text: string): void {
    for (const client of this.byTenant.get(tenantId) ?? []) this.write(client, text);
    for (const client of this.everyTenant) this.write(client, text);
  }

  private broadcastAll(text: string): void {
    for (const set of this.byTenant.values()) for (const client of set) this.write(client, text);
    for (const client of this.everyTenant) this.write(client, text);
  }

  private write(client: StreamClient, text: string): void {
    if (client.pending) {
      client.pending.push(text);
      return;
    }
    if (client.raw.writableLength > MAX_BUFFERED_BYTES) {
      // A stalled reader: drop it rather than buffer without bound; EventSource reconnects.
      this.remove(client);
      client.raw.destroy();
      return;
    }
    client.raw.write(text);
  }
}

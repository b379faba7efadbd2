import type { Socket } from 'node:net';
import type { LiveEvent } from '@vigil/contracts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { TOPICS, type AlertOpenedEvent, type DeviceStatusEvent, type SessionsRevokedEvent } from '../../events/topics.ts';
import { portalLiveStates, type PortalLiveState } from './live-events.repository.ts';
import { LAST_CHUNK, sseFrame, sseMessage, type SseFrame } from './sse-wire.ts';
import type { TicketSession } from './stream-tickets.repository.ts';

export { sseMessage } from './sse-wire.ts';

/** Keep-alive comment period (proxies drop idle streams). */
export const KEEP_ALIVE_MS = 15_000;
/**
 * Backpressure: a client whose socket still holds this much that the kernel would not take (it
 * stopped reading, or its link is far slower than the event rate) is disconnected rather than
 * buffered without bound. EventSource reconnects on its own and gets a fresh snapshot.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024;
/** Changes merged into one query and one write per client, at most (a burst larger than this takes several rounds). */
const MAX_CHANGES_PER_ROUND = 256;

const KEEP_ALIVE = sseFrame(': keep-alive\n\n');

/**
 * One connected EventSource: its socket, written directly (live-stream.ts). `tenantId` undefined:
 * superAdmin, sees every tenant. The hub keeps nothing else per client.
 */
export interface StreamClient {
  tenantId: number | undefined;
  socket: Socket;
  /** HTTP/1.1: chunked framing; HTTP/1.0: plain bytes until the connection closes. */
  chunked: boolean;
  /** Messages held until the connect snapshot is written, so nothing arrives before it. */
  pending: SseFrame[] | null;
  /** The session whose ticket opened the stream: the stream ends when that session does. */
  session?: TicketSession;
}

interface PendingChange {
  tenantId: number;
  portalId: number;
  offline: Set<number>;
  online: Set<number>;
  at: string;
}

/**
 * The process-wide fan-out of live events: ONE bus subscription per topic, an in-memory
 * registry of clients keyed by tenant, one keep-alive timer for all. Changes are queued (merged
 * per portal) and drained off the webhook's request path: per round, one query for every queued
 * portal, then per tenant one frame (one Buffer, framed once) written to each of its clients'
 * sockets and to the superAdmins'. So a burst of changes costs one write per client, not one per
 * change, and a flood of webhooks cannot pile up queries.
 */
export class LiveHub {
  private readonly byTenant = new Map<number, Set<StreamClient>>();
  private readonly everyTenant = new Set<StreamClient>();
  private readonly queue = new Map<string, PendingChange>();
  private draining = false;
  private unsubscribers: (() => void)[] = [];
  private keepAlive: NodeJS.Timeout | undefined;
  /** Clients disconnected for not reading (backpressure), since start: diagnostics and tests. */
  dropped = 0;

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
      // Devices joining an open alert raise the banner too, with the alert's new count (docs/alerts.md).
      this.deps.bus.subscribe(TOPICS.alertJoined, (e) => this.onAlertOpened(e as AlertOpenedEvent)),
      this.deps.bus.subscribe(TOPICS.sessionsRevoked, (e) => void this.onSessionsRevoked(e as SessionsRevokedEvent)),
    ];
    this.keepAlive = setInterval(() => this.broadcastAll(KEEP_ALIVE), KEEP_ALIVE_MS);
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
    this.write(client, sseFrame(snapshot));
    for (const frame of held) this.write(client, frame);
  }

  /** Ends every stream (server shutdown) and drops the subscriptions. */
  stop(): void {
    this.unsubscribers.forEach((u) => u());
    this.unsubscribers = [];
    clearInterval(this.keepAlive);
    for (const client of this.everyTenant) end(client);
    for (const set of this.byTenant.values()) for (const client of set) end(client);
    this.everyTenant.clear();
    this.byTenant.clear();
  }

  /**
   * Sessions of a user ended (docs/auth.md "When access ends"): its streams whose session no longer
   * stands end; the web app's reconnection then finds no ticket for it. deps.ts subscribed before
   * the hub, so the session state has already forgotten the user and reads it again.
   */
  private async onSessionsRevoked(event: SessionsRevokedEvent): Promise<void> {
    const userId = Number(event.userId);
    const affected: StreamClient[] = [];
    for (const client of this.everyTenant) if (client.session?.userId === userId) affected.push(client);
    for (const set of this.byTenant.values()) for (const client of set) if (client.session?.userId === userId) affected.push(client);
    for (const client of affected) {
      let stands = false;
      try {
        stands = await this.deps.sessions.isCurrent(client.session!);
      } catch (err) {
        this.deps.log.warn({ err, userId }, 'live stream: session check failed; stream ended');
      }
      if (stands) continue;
      this.remove(client);
      end(client);
    }
  }

  private hasListeners(tenantId: number): boolean {
    return this.everyTenant.size > 0 || (this.byTenant.get(tenantId)?.size ?? 0) > 0;
  }

  private onDeviceStatus(event: DeviceStatusEvent): void {
    if (!this.hasListeners(event.tenantId)) return;
    const key = `${event.tenantId}:${event.portalId}`;
    let change = this.queue.get(key);
    if (!change)
      this.queue.set(
        key,
        (change = { tenantId: event.tenantId, portalId: event.portalId, offline: new Set(), online: new Set(), at: event.at }),
      );
    // A device that flips twice within one merged change keeps only its latest direction.
    for (const id of event.offline ?? []) {
      change.online.delete(id);
      change.offline.add(id);
    }
    for (const id of event.online ?? []) {
      change.offline.delete(id);
      change.online.add(id);
    }
    change.at = event.at;
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.size > 0) {
        const round: PendingChange[] = [];
        for (const [key, change] of this.queue) {
          if (round.length === MAX_CHANGES_PER_ROUND) break;
          round.push(change);
          this.queue.delete(key);
        }
        await this.pushChanges(round).catch((err) => this.deps.log.error({ err }, 'live events: could not push device changes'));
      }
    } finally {
      this.draining = false;
    }
  }

  private async pushChanges(changes: PendingChange[]): Promise<void> {
    const states = await inScope(this.deps.database.db, allTenants, (tx) => portalLiveStates(tx, changes));
    // One text per tenant, changes in the order they were queued.
    const texts = new Map<number, string>();
    for (const change of changes) {
      const state = states.get(`${change.tenantId}:${change.portalId}`);
      if (state) texts.set(change.tenantId, (texts.get(change.tenantId) ?? '') + changeMessages(change, state));
    }
    for (const [tenantId, text] of texts) this.broadcast(tenantId, sseFrame(text));
  }

  private onAlertOpened(event: AlertOpenedEvent): void {
    if (!this.hasListeners(event.tenantId)) return;
    const text = sseMessage('alert', {
      alertId: event.alertId,
      customerId: event.portalId,
      customerName: event.customerName,
      alertType: event.alertType,
      offlineCount: event.offlineCount,
    });
    this.broadcast(event.tenantId, sseFrame(text));
  }

  private broadcast(tenantId: number, frame: SseFrame): void {
    for (const client of this.byTenant.get(tenantId) ?? []) this.write(client, frame);
    for (const client of this.everyTenant) this.write(client, frame);
  }

  private broadcastAll(frame: SseFrame): void {
    for (const set of this.byTenant.values()) for (const client of set) this.write(client, frame);
    for (const client of this.everyTenant) this.write(client, frame);
  }

  private write(client: StreamClient, frame: SseFrame): void {
    if (client.pending) {
      client.pending.push(frame);
      return;
    }
    const socket = client.socket;
    if (socket.writableLength > MAX_BUFFERED_BYTES) {
      // A stalled reader: drop it rather than buffer without bound (deleting from the Set being
      // iterated is safe: a Set iterator skips deleted entries).
      this.remove(client);
      this.dropped++;
      socket.destroy();
      return;
    }
    if (socket.writable) socket.write(client.chunked ? frame.chunked : frame.plain);
  }
}

/** The `devices` and `live-events` messages of one portal's change. */
function changeMessages(change: PendingChange, state: PortalLiveState): string {
  const row: LiveEvent | null =
    state.offlineSince === null
      ? null
      : {
          customerId: state.customerId,
          customerName: state.customerName,
          tenantName: state.tenantName,
          offlineCount: state.offlineCount,
          offlineSince: state.offlineSince,
        };
  return (
    sseMessage('devices', {
      customerId: state.customerId,
      offlineCount: state.offlineCount,
      onlineCount: state.onlineCount,
      offline: [...change.offline],
      online: [...change.online],
      at: change.at,
    }) + sseMessage('live-events', { customerId: state.customerId, row })
  );
}

/** Ends a stream cleanly: the last chunk (HTTP/1.1), then FIN. */
function end(client: StreamClient): void {
  if (client.chunked) client.socket.end(LAST_CHUNK);
  else client.socket.end();
}

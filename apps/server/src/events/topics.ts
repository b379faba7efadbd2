/**
 * Topics on the event bus (events/bus.ts) and their payloads. Published after
 * (or inside) the transaction that made the change, so subscribers see committed data.
 */
export const TOPICS = {
  /** Devices changed status (webhook or offline sweep). */
  deviceStatus: 'devices.status',
  /** A portal was created or deleted (billing keeps the subscription quantity in step). */
  portalsChanged: 'portals.changed',
  /** An alert was opened (the web app's banner). */
  alertOpened: 'alerts.opened',
  /** Offline devices joined a portal's open Device Offline alert (the web app's banner; payload as alertOpened, the new count). */
  alertJoined: 'alerts.joined',
  /** A user's session version was bumped or one of its sessions ended: processes drop what they cached. */
  sessionsRevoked: 'sessions.revoked',
  /** A tenant's settings (goal, time zone, ...) changed or it was deleted: processes drop what they derived from them. */
  tenantChanged: 'tenants.changed',
  /** The uptime rollup ran for a tenant: figures kept on its rows (the trend's settled days) are read again. */
  rollupRan: 'stats.rollup-ran',
} as const;

export interface DeviceStatusEvent extends Record<string, unknown> {
  tenantId: number;
  portalId: number;
  /** Device ids that went offline / came online in this change. */
  offline: number[];
  online: number[];
  /** ISO time of the change. */
  at: string;
}

export interface PortalsChangedEvent extends Record<string, unknown> {
  tenantId: number;
}

export interface TenantChangedEvent extends Record<string, unknown> {
  tenantId: number;
}

export interface RollupRanEvent extends Record<string, unknown> {
  tenantId: number;
}

export interface AlertOpenedEvent extends Record<string, unknown> {
  tenantId: number;
  alertId: number;
  portalId: number;
  customerName: string;
  alertType: number;
  offlineCount: number;
}

export interface SessionsRevokedEvent extends Record<string, unknown> {
  userId: number;
}

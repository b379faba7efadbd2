import { sql } from 'drizzle-orm';

/**
 * The offline devices (status 0, not removed) as `d`, each with its open offline period `op`, for a
 * `from` clause: `from ${OFFLINE_DEVICES} where ${IS_OFFLINE_DEVICE} and op.tenant_id = ...`.
 *
 * Why through the periods: no index of `devices` names `status`, so that a status flip is a HOT update
 * (schema/monitoring.ts). A device not removed has exactly one open period, of its current status
 * (docs/monitoring.md), so its open offline periods, in the small partial index periods_open_offline_idx
 * (tenant, portal, device), name exactly the offline devices. The device's own columns are checked too,
 * so a reader never lists an online or removed device whatever the periods say.
 *
 * Put a tenant or portal condition on `op` (`op.tenant_id`, `op.portal_id`): that is the index's prefix.
 */
export const OFFLINE_DEVICES = sql`device_status_periods op join devices d on d.tenant_id = op.tenant_id and d.id = op.device_id`;

/** The conditions that go with OFFLINE_DEVICES (the first two are the partial index's predicate). */
export const IS_OFFLINE_DEVICE = sql`op.ended_at is null and op.status = 0 and d.status = 0 and d.removed_at is null`;

import { sql } from 'drizzle-orm';
import { OFFLINE } from './codes.ts';

/**
 * The offline devices as their open offline periods `op`, for a `from` clause:
 * `from ${OFFLINE_PERIODS} where ${IS_OPEN_OFFLINE} and op.tenant_id = ...`. Each row names the device
 * (`op.device_id`, `op.portal_id`, `op.tenant_id`), and `op.started_at` is the device's `status_since`.
 *
 * Why the periods: no index of `devices` names `status`, so that a status flip is a HOT update
 * (schema/monitoring.ts). A device not removed has exactly one open period, of its current status (a
 * status-2 one while in maintenance, docs/maintenance.md), and a removed one has none (docs/monitoring.md;
 * `devices/offline-devices.api.test.ts` checks it after every kind of write), so the open offline periods,
 * in the small partial index periods_open_offline_idx (tenant, portal, device, started_at), are exactly the
 * offline devices not in maintenance: those that may open an alert. Readers do not join `devices` to find them:
 * the planner, which cannot tell how few periods are open and offline, would hash every device of the
 * tenant (at L, 100,000 rows and 40 ms for 2,000 offline devices; a forced per-device lookup took 395 ms
 * for 67,000 after a storm).
 *
 * Put a tenant or portal condition on `op` (`op.tenant_id`, `op.portal_id`): that is the index's prefix.
 */
export const OFFLINE_PERIODS = sql`device_status_periods op`;

/** The condition that goes with OFFLINE_PERIODS: the partial index's predicate. */
export const IS_OPEN_OFFLINE = sql`op.ended_at is null and op.status = ${OFFLINE}`;

/**
 * The public surface of features/alerts: what other features may import from it.
 * Alerts: list, detail, creation. Other features label an alert's status and type.
 * Anything not exported here is internal to the feature.
 */
export { alertDot, alertTypeLabel } from './alertStatus.ts';

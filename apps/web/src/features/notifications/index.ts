/**
 * The public surface of features/notifications: what other features may import from it.
 * Settings shows the channels as its Notifications tab; the Delivery log is its own route (app/router.tsx).
 * Anything not exported here is internal to the feature.
 */
export { NotificationChannelsPanel } from './components/NotificationChannelsPanel.tsx';

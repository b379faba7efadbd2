/**
 * The public surface of features/maintenance: what other features may import from it.
 * The portal page and the device page show the Maintenance card (docs/web-pages.md "Maintenance windows").
 * Anything not exported here is internal to the feature.
 */
export { MaintenanceCard } from './components/MaintenanceCard.tsx';

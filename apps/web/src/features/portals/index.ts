/**
 * The public surface of features/portals: what other features may import from it.
 * Portals (customers): list, detail, devices, licenses. Other features list portals.
 * Anything not exported here is internal to the feature.
 */
export { usePortalsQuery } from './api.ts';
export { PortalsTable } from './components/PortalsTable.tsx';
export { AddPortalDialog } from './components/AddPortalDialog.tsx';

/** What other modules may use of tenants. */
export { findTenant } from './tenants.repository.ts';
export { announceTenantChanged } from './tenant-events.ts';

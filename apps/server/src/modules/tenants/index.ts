/** What other modules may use of tenants. */
export { findTenant } from './tenants.repository.ts';

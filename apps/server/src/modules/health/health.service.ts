/** readyz: one round trip to the database. */
export { pingDatabase } from './health.repository.ts';

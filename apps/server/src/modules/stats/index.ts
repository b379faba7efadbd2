/** What other modules and jobs may use of stats: reliability figures, status counts, the uptime rollup. */
export {
  dailyOnlineShare,
  reliabilityByPortal,
  reliabilityOfTenant,
  topOfflineDevices,
  type DailyOnlineShare,
  type OfflineDevice,
  type ReliabilityWindow,
} from './reliability.repository.ts';
export { maintenanceSeconds } from './reliability.repository.ts';
export { MAINTENANCE, observed } from './observed.repository.ts';
export { statusCounts } from './stats.repository.ts';
export { rollUpAllTenants } from './rollup.service.ts';
export type { RollupRun } from './rollup-build.repository.ts';

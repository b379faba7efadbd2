/**
 * What other modules and jobs may use of stats: reliability figures, status counts, the uptime rollup,
 * and the rule that maintenance is not observed time (`observed`, for a device's own score).
 */
export {
  dailyOnlineShare,
  maintenanceSeconds,
  reliabilityByPortal,
  reliabilityOfTenant,
  reliabilityWithRows,
  topOfflineDevices,
  type DailyOnlineShare,
  type OfflineDevice,
  type ReliabilityWindow,
} from './reliability.repository.ts';
export { observed } from './observed.repository.ts';
export { statusCounts } from './stats.repository.ts';
export { rollUpAllTenants } from './rollup.service.ts';
export { LIVE_MS } from './trend-cache.ts';
export { readMarksOf } from './read-marks.ts';
export { keptBasesOf, type KeptBases } from './kept-bases.ts';
export type { RollupRun } from './rollup-build.repository.ts';

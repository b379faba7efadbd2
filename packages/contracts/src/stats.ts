import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, idParams, isoDate, listOf } from './envelope.ts';
import { idFilter, listQuery, qFilter } from './list-query.ts';

/**
 * Pulse and portal statistics (docs/product.md "Records"; docs/decisions.md 19, 27). Reliability windows default to the last 30 days;
 * `from`/`to` (ISO timestamps) narrow or move them.
 */
const isoInstant = z.iso.datetime({ offset: true, error: 'from and to must be ISO 8601 timestamps' });
export const statsWindowQuery = z
  .strictObject({ from: isoInstant.optional(), to: isoInstant.optional() })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { error: 'from must be before to' });
export type StatsWindowQuery = z.infer<typeof statsWindowQuery>;

/** Pulse summary: the tenant's online/offline devices (removed excluded) and company-wide reliability. */
export const pulseSummary = z.object({
  offlineCount: z.number().int(),
  onlineCount: z.number().int(),
  /** Percent with one decimal; -1 when nothing was observed in the window. */
  avgReliabilityScore: z.number(),
  /** The tenant's reliability goal (percent); for the superAdmin (all tenants) the default, 95. */
  goalScore: z.number(),
});

/** Device stats row: how many devices of one type (every type listed, zeros included). */
export const deviceTypeCount = z.object({ deviceType: z.number().int(), totalCount: z.number().int() });

/** One row of the paged device-stats table: one portal x one device type. */
export const deviceStatsRow = z.object({
  customerId: z.number().int(),
  customerName: z.string(),
  tenantName: z.string().optional(),
  deviceType: z.number().int(),
  totalCount: z.number().int(),
  onlineCount: z.number().int(),
  offlineCount: z.number().int(),
});
export type DeviceStatsRow = z.infer<typeof deviceStatsRow>;

export const DEVICE_STATS_SORT = ['customerName', 'deviceType', 'totalCount', 'onlineCount', 'offlineCount'] as const;
export const deviceStatsQuery = listQuery({
  sort: DEVICE_STATS_SORT,
  filter: {
    customerId: idFilter,
    deviceType: z.number().int().min(0).max(4).optional(),
    q: qFilter,
    tenantName: qFilter,
  },
});

/** A portal's device counts by type (all devices, online or not; removed excluded). */
export const customerDeviceSummary = z.object({
  cameraCount: z.number().int(),
  intercomCount: z.number().int(),
  accessCount: z.number().int(),
  alarmCount: z.number().int(),
  environmentalCount: z.number().int(),
  offlineCount: z.number().int(),
  onlineCount: z.number().int(),
});

/** Portal stats: counts, the portal's reliability over the window and the tenant's goal. */
export const portalStats = z.object({
  offlineCount: z.number().int(),
  onlineCount: z.number().int(),
  reliabilityScore: z.number(),
  goalScore: z.number(),
});

/** A daily reliability trend: 30 consecutive days ending today in the tenant's
 * time zone (UTC for the superAdmin's all-tenant trend); a day's score is -1 when nothing was observed. */
export const reliabilityTrend = z.object({
  goal: z.number(),
  days: z.array(z.object({ date: isoDate, score: z.number() })),
});
export type ReliabilityTrend = z.infer<typeof reliabilityTrend>;

export const statsEndpoints = {
  pulseSummary: endpoint({
    method: 'GET',
    path: '/v0/api/device-summary/sumup',
    summary: "Pulse summary: online/offline devices, company-wide reliability and the tenant's goal",
    tag: 'stats',
    query: statsWindowQuery,
    response: dataOf(pulseSummary),
  }),
  deviceTypeTotals: endpoint({
    method: 'GET',
    path: '/v0/api/device-stats/sumup',
    summary: 'Device counts by type (all five types)',
    tag: 'stats',
    response: dataOf(z.array(deviceTypeCount)),
  }),
  deviceStats: endpoint({
    method: 'GET',
    path: '/v0/api/device-stats',
    summary: 'Device counts per portal and type (paged)',
    tag: 'stats',
    query: deviceStatsQuery,
    response: listOf(deviceStatsRow),
  }),
  customerDeviceSummary: endpoint({
    method: 'GET',
    path: '/v0/api/customers/:id/device-summary',
    summary: "A portal's device counts by type and status",
    tag: 'stats',
    params: idParams,
    response: dataOf(customerDeviceSummary),
  }),
  customerStats: endpoint({
    method: 'GET',
    path: '/v0/api/customers/:id/stats',
    summary: "A portal's online/offline counts, reliability and the tenant's goal",
    tag: 'stats',
    params: idParams,
    query: statsWindowQuery,
    response: dataOf(portalStats),
  }),
  customerReliabilityTrend: endpoint({
    method: 'GET',
    path: '/v0/api/customers/:id/reliability-trend',
    summary: "A portal's daily reliability over the last 30 days and the tenant's goal",
    tag: 'stats',
    params: idParams,
    response: dataOf(reliabilityTrend),
  }),
  reliabilityTrend: endpoint({
    method: 'GET',
    path: '/v0/api/reliability-trend',
    summary: 'The company-wide daily reliability over the last 30 days and the goal',
    tag: 'stats',
    response: dataOf(reliabilityTrend),
  }),
};

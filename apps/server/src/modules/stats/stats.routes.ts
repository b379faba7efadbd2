import { DEVICE_TYPES, statsEndpoints } from '@vigil/contracts';
import { TOPICS, type DeviceStatusEvent } from '../../events/topics.ts';
import { route, tenantOf, type AppModule } from '../../http/route.ts';
import {
  companyTrend,
  customerDeviceSummary,
  customerStats,
  customerTrend,
  deviceStatsPage,
  pulseSummary,
  typeTotals,
  windowOf,
} from './stats.service.ts';
import { readMarksOf } from './read-marks.ts';
import { createTrendCache } from './trend-cache.ts';

/** Pulse and portal statistics (docs/decisions.md 27; every role reads, superAdmin across tenants). */
export const statsModule: AppModule = (app, deps) => {
  // This app's settled trend days (trend-cache.ts): per app, so apps on different databases never share it.
  const trends = createTrendCache({ live: deps.database.notifiesAtCommit });
  // What changes a tenant's figures, announced at commit: today is read again after it.
  const tenantOfEvent = (topic: string, at?: (e: Record<string, unknown>) => number) =>
    deps.bus.subscribe(topic, (e) => trends.changed(Number(e.tenantId), at?.(e)));
  tenantOfEvent(TOPICS.deviceStatus, (e) => Date.parse((e as DeviceStatusEvent).at));
  tenantOfEvent(TOPICS.portalsChanged);
  tenantOfEvent(TOPICS.tenantChanged);
  tenantOfEvent(TOPICS.rollupRan);
  // Marks of the current hour and, on PGlite, of the kept windows' heads (hour-mark.repository.ts, kept-mark.repository.ts).
  const readMarks = readMarksOf(deps.database);
  const marks = readMarks.hour;
  route(app, deps, statsEndpoints.pulseSummary, {
    permission: 'monitoring:read',
    handler: async ({ query, scope, readTx }) => ({
      data: await readTx((reader) => pulseSummary(reader, tenantOf(scope), windowOf(query, deps.clock.now()), marks)),
    }),
  });

  route(app, deps, statsEndpoints.deviceTypeTotals, {
    permission: 'monitoring:read',
    handler: async ({ scope, readTx }) => {
      const totals = await readTx((reader) => typeTotals(reader, tenantOf(scope)));
      return { data: DEVICE_TYPES.map((_, deviceType) => ({ deviceType, totalCount: totals[deviceType] ?? 0 })) };
    },
  });

  route(app, deps, statsEndpoints.deviceStats, {
    permission: 'monitoring:read',
    handler: async ({ query, scope, readTx }) => {
      const page = await readTx((reader) => deviceStatsPage(reader, tenantOf(scope), query));
      // Tenant users do not see the tenant column (docs/web-pages.md "Pages": superAdmin only).
      const list = scope.kind === 'all' ? page.list : page.list.map(({ tenantName: _omit, ...row }) => row);
      return { data: { list, count: page.count } };
    },
  });

  route(app, deps, statsEndpoints.customerDeviceSummary, {
    permission: 'monitoring:read',
    handler: async ({ params, scope, readTx }) => ({
      data: await readTx((reader) => customerDeviceSummary(reader, tenantOf(scope), params.id)),
    }),
  });

  route(app, deps, statsEndpoints.customerStats, {
    permission: 'monitoring:read',
    handler: async ({ params, query, scope, readTx }) => ({
      data: await readTx((reader) => customerStats(reader, tenantOf(scope), params.id, windowOf(query, deps.clock.now()), readMarks.kept)),
    }),
  });

  route(app, deps, statsEndpoints.customerReliabilityTrend, {
    permission: 'monitoring:read',
    handler: async ({ params, scope, readTx }) => ({
      data: await readTx((reader) => customerTrend(reader, tenantOf(scope), params.id, deps.clock.now())),
    }),
  });

  route(app, deps, statsEndpoints.reliabilityTrend, {
    permission: 'monitoring:read',
    handler: async ({ scope, readTx }) => ({
      data: await companyTrend(readTx, tenantOf(scope), deps.clock.now(), trends, marks),
    }),
  });
};

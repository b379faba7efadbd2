import type { ResponseOf, deviceEndpoints, statsEndpoints } from '@vigil/contracts';
import { deviceRoutes, statsRoutes } from '@vigil/contracts/routes';
import { api, request } from '../../lib/api/apiSlice.ts';

type D = typeof deviceEndpoints;
type S = typeof statsEndpoints;

/** The device page (docs/history.md) and the reliability trends of Pulse and the portal page. */
export const devicesApi = api.injectEndpoints({
  endpoints: (build) => ({
    device: build.query<ResponseOf<D['get']>, number>({
      query: (id) => request(deviceRoutes.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'Device', id }, 'Tenant'],
    }),
    deviceHistory: build.query<ResponseOf<D['history']>, { id: number; from: string; to: string }>({
      query: ({ id, from, to }) => request(deviceRoutes.history, { params: { id }, query: { from, to } }),
      providesTags: (_r, _e, { id }) => [{ type: 'Device', id }],
    }),
    reliabilityTrend: build.query<ResponseOf<S['reliabilityTrend']>, void>({
      query: () => request(statsRoutes.reliabilityTrend),
      providesTags: ['Stats', 'Tenant'],
    }),
    customerReliabilityTrend: build.query<ResponseOf<S['customerReliabilityTrend']>, number>({
      query: (id) => request(statsRoutes.customerReliabilityTrend, { params: { id } }),
      providesTags: ['Stats', 'Tenant'],
    }),
  }),
});

export const { useDeviceQuery, useDeviceHistoryQuery, useReliabilityTrendQuery, useCustomerReliabilityTrendQuery } = devicesApi;

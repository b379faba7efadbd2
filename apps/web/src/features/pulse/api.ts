import type { ResponseOf, statsEndpoints } from '@vigil/contracts';
import { statsRoutes } from '@vigil/contracts/routes';
import { api, request } from '../../lib/api/apiSlice.ts';

type S = typeof statsEndpoints;

export const pulseApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Counts, reliability and the tenant's goal (every role; editing the tenant's goal refreshes it). */
    pulseSummary: build.query<ResponseOf<S['pulseSummary']>, void>({
      query: () => request(statsRoutes.pulseSummary),
      providesTags: ['Stats', 'Tenant'],
    }),
    deviceTypeTotals: build.query<ResponseOf<S['deviceTypeTotals']>, void>({
      query: () => request(statsRoutes.deviceTypeTotals),
      providesTags: ['Stats'],
    }),
  }),
});

export const { usePulseSummaryQuery, useDeviceTypeTotalsQuery } = pulseApi;

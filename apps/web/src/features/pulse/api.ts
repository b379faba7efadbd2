import { statsEndpoints, type ResponseOf } from '@vigil/contracts';
import { api, request } from '../../lib/api/apiSlice.ts';

type S = typeof statsEndpoints;

export const pulseApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Counts, reliability and the tenant's goal (every role; editing the tenant's goal refreshes it). */
    pulseSummary: build.query<ResponseOf<S['pulseSummary']>, void>({
      query: () => request(statsEndpoints.pulseSummary),
      providesTags: ['Stats', 'Tenant'],
    }),
    deviceTypeTotals: build.query<ResponseOf<S['deviceTypeTotals']>, void>({
      query: () => request(statsEndpoints.deviceTypeTotals),
      providesTags: ['Stats'],
    }),
  }),
});

export const { usePulseSummaryQuery, useDeviceTypeTotalsQuery } = pulseApi;

import { LIMITS, pathOf, statsEndpoints, tenantsEndpoints, type ResponseOf } from '@vigil/contracts';
import { api, request } from '../../lib/api/apiSlice.ts';

type S = typeof statsEndpoints;

export const pulseApi = api.injectEndpoints({
  endpoints: (build) => ({
    pulseSummary: build.query<ResponseOf<S['pulseSummary']>, void>({
      query: () => request(statsEndpoints.pulseSummary),
      providesTags: ['Stats'],
    }),
    deviceTypeTotals: build.query<ResponseOf<S['deviceTypeTotals']>, void>({
      query: () => request(statsEndpoints.deviceTypeTotals),
      providesTags: ['Stats'],
    }),
    /**
     * The tenant's reliability goal. Only Admins may read tenant info; for other roles
     * (and on any failure) the spec's default goal 95 applies, silently.
     */
    reliabilityGoal: build.query<number, number>({
      queryFn: async (tenantId, _api, _extra, baseQuery) => {
        const result = await baseQuery({ url: pathOf(tenantsEndpoints.get.path, { id: tenantId }), method: 'GET' });
        const goal = (result.data as { data?: { goalScore?: unknown } } | undefined)?.data?.goalScore;
        return { data: typeof goal === 'number' ? goal : LIMITS.goalScoreDefault };
      },
      extraOptions: { silent: true },
      providesTags: ['Tenant'],
    }),
  }),
});

export const { usePulseSummaryQuery, useDeviceTypeTotalsQuery, useReliabilityGoalQuery } = pulseApi;

import { api } from '../../lib/api/apiSlice.ts';
import { listFrom } from '../../lib/api/listFrom.ts';

export interface RecentAlert {
  id?: number;
  customerName: string;
  alertType: number;
  offlineCount: number;
}

/** The header's alarm calls (docs/decisions.md 19 names their paths). Failures are silent: logged, empty list. */
export const shellApi = api.injectEndpoints({
  endpoints: (build) => ({
    recentAlerts: build.query<RecentAlert[], void>({
      query: () => ({ url: `/v0/api/alert-stats?sort=${encodeURIComponent('["createdAt","DESC"]')}&range=${encodeURIComponent('[0,5]')}` }),
      transformResponse: (body: unknown) => listFrom<RecentAlert>(body),
      extraOptions: { silent: true },
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazyRecentAlertsQuery } = shellApi;

import { api } from '../../lib/api/apiSlice.ts';

export interface RecentAlert {
  id?: number;
  customerName: string;
  alertType: number;
  offlineCount: number;
}
export interface CustomerOption {
  id: number;
  name?: string | null;
}

/** Reads a list from `{data: {list}}` or `{data: [...]}` (the spec reads lists via a data field). */
function listFrom<T>(body: unknown): T[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (Array.isArray(data)) return data as T[];
  const list = (data as { list?: unknown } | undefined)?.list;
  return Array.isArray(list) ? (list as T[]) : [];
}

/** The header's calls (decisions.md §2 names their paths). Failures are silent: logged, empty list. */
export const shellApi = api.injectEndpoints({
  endpoints: (build) => ({
    recentAlerts: build.query<RecentAlert[], void>({
      query: () => ({ url: `/v0/api/alert-stats?sort=${encodeURIComponent('["createdAt","DESC"]')}&range=${encodeURIComponent('[0,5]')}` }),
      transformResponse: (body: unknown) => listFrom<RecentAlert>(body),
      extraOptions: { silent: true },
      keepUnusedDataFor: 0,
    }),
    searchCustomers: build.query<CustomerOption[], string>({
      query: (name) => ({ url: `/v0/api/customers/search?filter=${encodeURIComponent(JSON.stringify({ name }))}` }),
      transformResponse: (body: unknown) => listFrom<CustomerOption>(body),
      extraOptions: { silent: true },
    }),
  }),
});

export const { useLazyRecentAlertsQuery, useSearchCustomersQuery } = shellApi;

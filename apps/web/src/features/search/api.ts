import { api } from '../../lib/api/apiSlice.ts';
import { listFrom } from '../../lib/api/listFrom.ts';

export interface CustomerOption {
  id: number;
  name?: string | null;
}

/** The customer search of the header and the Search page (docs/decisions.md 19 names its path). Failures are silent: logged, empty list. */
export const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchCustomers: build.query<CustomerOption[], string>({
      query: (name) => ({ url: `/v0/api/customers/search?filter=${encodeURIComponent(JSON.stringify({ name }))}` }),
      transformResponse: (body: unknown) => listFrom<CustomerOption>(body),
      extraOptions: { silent: true },
    }),
  }),
});

export const { useSearchCustomersQuery } = searchApi;

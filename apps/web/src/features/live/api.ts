import type { ListQueryInput, ResponseOf, liveEventsEndpoints } from '@vigil/contracts';
import { liveEventsRoutes } from '@vigil/contracts/routes';
import { api, request } from '../../lib/api/apiSlice.ts';

type E = typeof liveEventsEndpoints;

export const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    liveEvents: build.query<ResponseOf<E['list']>, ListQueryInput>({
      query: (list) => request(liveEventsRoutes.list, { list }),
      providesTags: [{ type: 'Stats', id: 'live' }],
    }),
    /** A single-use ticket for the stream (never the token in the URL). Silent: reconnects retry. */
    streamTicket: build.mutation<ResponseOf<E['ticket']>, void>({
      query: () => request(liveEventsRoutes.ticket, { body: {} }),
      extraOptions: { silent: true },
    }),
  }),
});

export const { useLiveEventsQuery, useStreamTicketMutation } = liveApi;

import type { portalEndpoints, ResponseOf } from '@vigil/contracts';
import { portalRoutes } from '@vigil/contracts/routes';
import { api, request } from './apiSlice.ts';

/**
 * Every portal of the tenant (`/customers/all`), for the portal pickers of several
 * features (new case, new alert, new report). Shared here rather than in features/portals
 * so those features need not import it; the portals feature's mutations refresh it
 * through the 'Portal' tag.
 */
export const portalOptionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    allPortals: build.query<ResponseOf<typeof portalEndpoints.all>, void>({
      query: () => request(portalRoutes.all),
      providesTags: ['Portal'],
    }),
  }),
});

export const { useAllPortalsQuery } = portalOptionsApi;

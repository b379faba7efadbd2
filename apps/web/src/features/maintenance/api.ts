import {
  LIMITS,
  type CreateMaintenanceInput,
  type deviceEndpoints,
  type ListQueryInput,
  type maintenanceEndpoints,
  type ResponseOf,
  type UpdateMaintenanceInput,
} from '@vigil/contracts';
import { deviceRoutes, maintenanceRoutes } from '@vigil/contracts/routes';
import { api, request } from '../../lib/api/apiSlice.ts';

type M = typeof maintenanceEndpoints;

/**
 * Maintenance windows (docs/web-pages.md "Maintenance windows"). A change
 * puts devices into or out of maintenance at once (the server applies it in the request), so it also
 * refreshes the device rows, the counts and the reliability figures ('Device', 'Stats', 'Portal').
 */
export const maintenanceApi = api.enhanceEndpoints({ addTagTypes: ['Maintenance'] }).injectEndpoints({
  endpoints: (build) => ({
    maintenanceWindows: build.query<ResponseOf<M['list']>, ListQueryInput>({
      query: (list) => request(maintenanceRoutes.list, { list }),
      providesTags: ['Maintenance'],
    }),
    createMaintenanceWindow: build.mutation<ResponseOf<M['create']>, CreateMaintenanceInput>({
      query: (body) => request(maintenanceRoutes.create, { body }),
      invalidatesTags: ['Maintenance', 'Device', 'Stats', 'Portal'],
    }),
    updateMaintenanceWindow: build.mutation<ResponseOf<M['update']>, { id: number; body: UpdateMaintenanceInput }>({
      query: ({ id, body }) => request(maintenanceRoutes.update, { params: { id }, body }),
      invalidatesTags: ['Maintenance', 'Device', 'Stats', 'Portal'],
    }),
    deleteMaintenanceWindow: build.mutation<ResponseOf<M['remove']>, number>({
      query: (id) => request(maintenanceRoutes.remove, { params: { id } }),
      invalidatesTags: ['Maintenance', 'Device', 'Stats', 'Portal'],
    }),
    /**
     * A portal's devices by name, for the dialog's device picker and the names behind "N devices": one page
     * of the largest size the list allows, those whose name contains `q` when given (useDeviceOptions.ts).
     */
    portalDeviceOptions: build.query<ResponseOf<typeof deviceEndpoints.list>, { customerId: number; q?: string }>({
      query: ({ customerId, q }) =>
        request(deviceRoutes.list, {
          list: { range: [0, LIMITS.pageSizeMax], sort: ['name', 'ASC'], filter: q ? { customerId, q } : { customerId } },
        }),
      providesTags: ['Device'],
    }),
  }),
});

export const {
  useMaintenanceWindowsQuery,
  useCreateMaintenanceWindowMutation,
  useUpdateMaintenanceWindowMutation,
  useDeleteMaintenanceWindowMutation,
  usePortalDeviceOptionsQuery,
} = maintenanceApi;

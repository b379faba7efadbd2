import {
  LIMITS,
  type CreateMaintenanceInput,
  type deviceEndpoints,
  type ListQueryInput,
  type maintenanceEndpoints,
  type ResponseOf,
  type tenantsEndpoints,
  type UpdateMaintenanceInput,
} from '@vigil/contracts';
import { deviceRoutes, maintenanceRoutes, tenantsRoutes } from '@vigil/contracts/routes';
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
     * of the largest size the list allows (a portal with more devices shows the first ones by name).
     */
    portalDeviceOptions: build.query<ResponseOf<typeof deviceEndpoints.list>, number>({
      query: (customerId) =>
        request(deviceRoutes.list, { list: { range: [0, LIMITS.pageSizeMax], sort: ['name', 'ASC'], filter: { customerId } } }),
      providesTags: ['Device'],
    }),
    /**
     * The tenant's time zone (docs/web-pages.md "Maintenance windows"), from the tenant's record. Asked here
     * rather than through features/tenants, whose surface brings the tenant form into the portal and
     * device pages; the 'Tenant' tag keeps it fresh when Settings changes the zone.
     */
    tenantZone: build.query<string, number>({
      query: (id) => request(tenantsRoutes.get, { params: { id } }),
      transformResponse: (body: ResponseOf<typeof tenantsEndpoints.get>) => body.data.timezone,
      providesTags: (_r, _e, id) => [{ type: 'Tenant', id }],
    }),
  }),
});

export const {
  useMaintenanceWindowsQuery,
  useCreateMaintenanceWindowMutation,
  useUpdateMaintenanceWindowMutation,
  useDeleteMaintenanceWindowMutation,
  usePortalDeviceOptionsQuery,
  useTenantZoneQuery,
} = maintenanceApi;

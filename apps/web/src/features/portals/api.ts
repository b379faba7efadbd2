import type {
  ListQueryInput,
  PortalForm,
  ResponseOf,
  caseEndpoints,
  deviceEndpoints,
  licenseEndpoints,
  portalEndpoints,
  statsEndpoints,
} from '@vigil/contracts';
import { caseRoutes, deviceRoutes, licenseRoutes, portalRoutes, statsRoutes } from '@vigil/contracts/routes';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type P = typeof portalEndpoints;
type S = typeof statsEndpoints;
type L = typeof licenseEndpoints;

export const portalsApi = api.injectEndpoints({
  endpoints: (build) => ({
    portals: build.query<ResponseOf<P['list']>, ListQueryInput>({
      query: (list) => request(portalRoutes.list, { list }),
      providesTags: ['Portal'],
    }),
    portal: build.query<ResponseOf<P['get']>, number>({
      query: (id) => request(portalRoutes.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'Portal', id }],
    }),
    /** Add Portal: errors (e.g. 402) are shown by the dialog, not the generic toast. */
    createPortal: build.mutation<ResponseOf<P['create']>, PortalForm>({
      query: (body) => request(portalRoutes.create, { body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Portal', 'Stats'],
    }),
    updatePortal: build.mutation<ResponseOf<P['update']>, { id: number; body: PortalForm }>({
      query: ({ id, body }) => request(portalRoutes.update, { params: { id }, body }),
      invalidatesTags: ['Portal'],
    }),
    rotateSecret: build.mutation<ResponseOf<P['rotateSecret']>, number>({
      query: (id) => request(portalRoutes.rotateSecret, { params: { id }, body: {} }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Portal', id }],
    }),
    portalStats: build.query<ResponseOf<S['customerStats']>, number>({
      query: (id) => request(statsRoutes.customerStats, { params: { id } }),
      providesTags: ['Stats'],
    }),
    devices: build.query<ResponseOf<typeof deviceEndpoints.list>, ListQueryInput>({
      query: (list) => request(deviceRoutes.list, { list }),
      providesTags: ['Device'],
    }),
    portalCases: build.query<ResponseOf<typeof caseEndpoints.listOfCustomer>, { id: number; list: ListQueryInput }>({
      query: ({ id, list }) => request(caseRoutes.listOfCustomer, { params: { id }, list }),
      providesTags: ['Case'],
    }),
    licenses: build.query<ResponseOf<L['list']>, ListQueryInput>({
      query: (list) => request(licenseRoutes.list, { list }),
      providesTags: ['License'],
    }),
    createLicense: build.mutation<ResponseOf<L['create']>, { id: number; body: RequestBodyOf<L['create']> }>({
      query: ({ id, body }) => request(licenseRoutes.create, { params: { id }, body }),
      invalidatesTags: ['License', 'Alert'],
    }),
    deleteLicense: build.mutation<ResponseOf<L['remove']>, number>({
      query: (id) => request(licenseRoutes.remove, { params: { id } }),
      invalidatesTags: ['License', 'Alert'],
    }),
  }),
});

export const {
  usePortalsQuery,
  usePortalQuery,
  useCreatePortalMutation,
  useUpdatePortalMutation,
  useRotateSecretMutation,
  usePortalStatsQuery,
  useDevicesQuery,
  usePortalCasesQuery,
  useLicensesQuery,
  useCreateLicenseMutation,
  useDeleteLicenseMutation,
} = portalsApi;

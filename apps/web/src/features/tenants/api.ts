import type { ListQueryInput, ResponseOf, UpdateTenantBody, tenantsEndpoints } from '@vigil/contracts';
import { tenantsRoutes } from '@vigil/contracts/routes';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type E = typeof tenantsEndpoints;

export const tenantsApi = api.injectEndpoints({
  endpoints: (build) => ({
    tenants: build.query<ResponseOf<E['list']>, ListQueryInput>({
      query: (list) => request(tenantsRoutes.list, { list }),
      providesTags: ['Tenant'],
    }),
    allTenants: build.query<ResponseOf<E['all']>, void>({
      query: () => request(tenantsRoutes.all),
      providesTags: ['Tenant'],
    }),
    tenant: build.query<ResponseOf<E['get']>, number>({
      query: (id) => request(tenantsRoutes.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'Tenant', id }],
    }),
    createTenant: build.mutation<ResponseOf<E['create']>, RequestBodyOf<E['create']>>({
      query: (body) => request(tenantsRoutes.create, { body }),
      invalidatesTags: ['Tenant'],
    }),
    updateTenant: build.mutation<ResponseOf<E['update']>, { id: number; body: UpdateTenantBody }>({
      query: ({ id, body }) => request(tenantsRoutes.update, { params: { id }, body }),
      invalidatesTags: ['Tenant'],
    }),
    deleteTenant: build.mutation<ResponseOf<E['remove']>, number>({
      query: (id) => request(tenantsRoutes.remove, { params: { id } }),
      invalidatesTags: ['Tenant', 'User'],
    }),
  }),
});

export const {
  useTenantsQuery,
  useAllTenantsQuery,
  useTenantQuery,
  useCreateTenantMutation,
  useUpdateTenantMutation,
  useDeleteTenantMutation,
} = tenantsApi;

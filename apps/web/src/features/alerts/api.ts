import type { ListQueryInput, ResponseOf, alertEndpoints } from '@vigil/contracts';
import { alertRoutes } from '@vigil/contracts/routes';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type A = typeof alertEndpoints;

export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    alerts: build.query<ResponseOf<A['list']>, ListQueryInput>({
      query: (list) => request(alertRoutes.list, { list }),
      providesTags: ['Alert'],
    }),
    alert: build.query<ResponseOf<A['get']>, number>({
      query: (id) => request(alertRoutes.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'Alert', id }],
    }),
    alertDevices: build.query<ResponseOf<A['devices']>, { id: number; list: ListQueryInput }>({
      query: ({ id, list }) => request(alertRoutes.devices, { params: { id }, list }),
      providesTags: ['Alert', 'Device'],
    }),
    createAlert: build.mutation<ResponseOf<A['create']>, RequestBodyOf<A['create']>>({
      query: (body) => request(alertRoutes.create, { body }),
      invalidatesTags: ['Alert'],
    }),
    createCaseFromAlert: build.mutation<ResponseOf<A['createCase']>, number>({
      query: (id) => request(alertRoutes.createCase, { params: { id }, body: {} }),
      invalidatesTags: ['Alert', 'Case', 'Device'],
    }),
    ackAlert: build.mutation<ResponseOf<A['ack']>, number>({
      query: (id) => request(alertRoutes.ack, { params: { id }, body: {} }),
      invalidatesTags: ['Alert'],
    }),
  }),
});

export const {
  useAlertsQuery,
  useAlertQuery,
  useAlertDevicesQuery,
  useCreateAlertMutation,
  useCreateCaseFromAlertMutation,
  useAckAlertMutation,
} = alertsApi;

import { alertEndpoints, type ListQueryInput, type ResponseOf } from '@vigil/contracts';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type A = typeof alertEndpoints;

export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    alerts: build.query<ResponseOf<A['list']>, ListQueryInput>({
      query: (list) => request(alertEndpoints.list, { list }),
      providesTags: ['Alert'],
    }),
    alert: build.query<ResponseOf<A['get']>, number>({
      query: (id) => request(alertEndpoints.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'Alert', id }],
    }),
    alertDevices: build.query<ResponseOf<A['devices']>, { id: number; list: ListQueryInput }>({
      query: ({ id, list }) => request(alertEndpoints.devices, { params: { id }, list }),
      providesTags: ['Alert', 'Device'],
    }),
    createAlert: build.mutation<ResponseOf<A['create']>, RequestBodyOf<A['create']>>({
      query: (body) => request(alertEndpoints.create, { body }),
      invalidatesTags: ['Alert'],
    }),
    createCaseFromAlert: build.mutation<ResponseOf<A['createCase']>, number>({
      query: (id) => request(alertEndpoints.createCase, { params: { id }, body: {} }),
      invalidatesTags: ['Alert', 'Case', 'Device'],
    }),
  }),
});

export const { useAlertsQuery, useAlertQuery, useAlertDevicesQuery, useCreateAlertMutation, useCreateCaseFromAlertMutation } = alertsApi;

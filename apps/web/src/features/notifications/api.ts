import type {
  CreateChannelInput,
  ListQueryInput,
  notificationChannelEndpoints,
  notificationEndpoints,
  ResponseOf,
  UpdateChannelInput,
} from '@vigil/contracts';
import { notificationChannelRoutes, notificationRoutes } from '@vigil/contracts/routes';
import { api, request } from '../../lib/api/apiSlice.ts';

type C = typeof notificationChannelEndpoints;
type D = typeof notificationEndpoints;

/**
 * Notification channels and their delivery log (docs/notifications.md). The tags are added here rather
 * than in the app's tag list: only this feature provides or invalidates them.
 */
export const notificationsApi = api.enhanceEndpoints({ addTagTypes: ['NotificationChannel', 'NotificationDelivery'] }).injectEndpoints({
  endpoints: (build) => ({
    notificationChannels: build.query<ResponseOf<C['list']>, ListQueryInput>({
      query: (list) => request(notificationChannelRoutes.list, { list }),
      providesTags: ['NotificationChannel'],
    }),
    createNotificationChannel: build.mutation<ResponseOf<C['create']>, CreateChannelInput>({
      query: (body) => request(notificationChannelRoutes.create, { body }),
      invalidatesTags: ['NotificationChannel'],
    }),
    updateNotificationChannel: build.mutation<ResponseOf<C['update']>, { id: number; body: UpdateChannelInput }>({
      query: ({ id, body }) => request(notificationChannelRoutes.update, { params: { id }, body }),
      invalidatesTags: ['NotificationChannel', 'NotificationDelivery'],
    }),
    deleteNotificationChannel: build.mutation<ResponseOf<C['remove']>, number>({
      query: (id) => request(notificationChannelRoutes.remove, { params: { id } }),
      invalidatesTags: ['NotificationChannel', 'NotificationDelivery'],
    }),
    testNotificationChannel: build.mutation<ResponseOf<C['test']>, number>({
      query: (id) => request(notificationChannelRoutes.test, { params: { id }, body: {} }),
      invalidatesTags: ['NotificationDelivery'],
    }),
    rotateNotificationSecret: build.mutation<ResponseOf<C['rotateSecret']>, number>({
      query: (id) => request(notificationChannelRoutes.rotateSecret, { params: { id }, body: {} }),
      invalidatesTags: ['NotificationChannel'],
    }),
    notificationDeliveries: build.query<ResponseOf<D['list']>, ListQueryInput>({
      query: (list) => request(notificationRoutes.list, { list }),
      providesTags: ['NotificationDelivery'],
    }),
  }),
});

export const {
  useNotificationChannelsQuery,
  useCreateNotificationChannelMutation,
  useUpdateNotificationChannelMutation,
  useDeleteNotificationChannelMutation,
  useTestNotificationChannelMutation,
  useRotateNotificationSecretMutation,
  useNotificationDeliveriesQuery,
} = notificationsApi;

import type { ListQueryInput, ResponseOf, caseEndpoints, commentEndpoints } from '@vigil/contracts';
import { caseRoutes, commentRoutes } from '@vigil/contracts/routes';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type C = typeof caseEndpoints;
type M = typeof commentEndpoints;

export const casesApi = api.injectEndpoints({
  endpoints: (build) => ({
    cases: build.query<ResponseOf<C['list']>, ListQueryInput>({
      query: (list) => request(caseRoutes.list, { list }),
      providesTags: ['Case'],
    }),
    caseStatusCounts: build.query<ResponseOf<C['sumup']>, void>({
      query: () => request(caseRoutes.sumup),
      providesTags: ['Case'],
    }),
    quarterCompleted: build.query<ResponseOf<C['quarterCompleted']>, void>({
      query: () => request(caseRoutes.quarterCompleted),
      providesTags: ['Case'],
    }),
    caseById: build.query<ResponseOf<C['get']>, number>({
      query: (id) => request(caseRoutes.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'Case', id }],
    }),
    /** Status change: the page shows its own success/error toast. */
    updateCase: build.mutation<ResponseOf<C['update']>, { id: number; caseType: number }>({
      query: ({ id, caseType }) => request(caseRoutes.update, { params: { id }, body: { caseType } }),
      extraOptions: { silent: true },
      invalidatesTags: ['Case', 'Device', 'Stats'],
    }),
    caseDevices: build.query<ResponseOf<C['devices']>, { id: number; list: ListQueryInput }>({
      query: ({ id, list }) => request(caseRoutes.devices, { params: { id }, list }),
      providesTags: ['Device'],
    }),
    /** 201 with the case, or 200 `{data: {error: true, msg}}` when no device qualifies. */
    createCase: build.mutation<ResponseOf<C['create']>, number>({
      query: (customerId) => request(caseRoutes.create, { params: { id: customerId }, body: { customerId } }),
      invalidatesTags: ['Case', 'Device', 'Alert'],
    }),
    comments: build.query<ResponseOf<M['list']>, { caseId: number; list: ListQueryInput }>({
      query: ({ caseId, list }) => request(commentRoutes.list, { params: { caseId }, list }),
      providesTags: ['Comment'],
    }),
    createComment: build.mutation<ResponseOf<M['create']>, { userId: number; caseId: number; body: RequestBodyOf<M['create']> }>({
      query: ({ userId, caseId, body }) => request(commentRoutes.create, { params: { userId, caseId }, body }),
      invalidatesTags: ['Comment'],
    }),
    updateComment: build.mutation<ResponseOf<M['update']>, { id: number; content: string }>({
      query: ({ id, content }) => request(commentRoutes.update, { params: { id }, body: { content } }),
      invalidatesTags: ['Comment'],
    }),
    deleteComment: build.mutation<ResponseOf<M['remove']>, number>({
      query: (id) => request(commentRoutes.remove, { params: { id } }),
      invalidatesTags: ['Comment'],
    }),
  }),
});

export const {
  useCasesQuery,
  useCaseStatusCountsQuery,
  useQuarterCompletedQuery,
  useCaseByIdQuery,
  useUpdateCaseMutation,
  useCaseDevicesQuery,
  useCreateCaseMutation,
  useCommentsQuery,
  useCreateCommentMutation,
  useUpdateCommentMutation,
  useDeleteCommentMutation,
} = casesApi;

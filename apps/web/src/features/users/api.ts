import { usersEndpoints, type CreateUserBody, type ListQueryInput, type ResponseOf, type UpdateUserBody } from '@vigil/contracts';
import { api, request } from '../../lib/api/apiSlice.ts';

type E = typeof usersEndpoints;

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    users: build.query<ResponseOf<E['list']>, ListQueryInput>({
      query: (list) => request(usersEndpoints.list, { list }),
      providesTags: ['User'],
    }),
    user: build.query<ResponseOf<E['get']>, number>({
      query: (id) => request(usersEndpoints.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'User', id }],
    }),
    createUser: build.mutation<ResponseOf<E['create']>, CreateUserBody>({
      query: (body) => request(usersEndpoints.create, { body }),
      invalidatesTags: ['User'],
    }),
    updateUser: build.mutation<ResponseOf<E['update']>, { id: number; body: UpdateUserBody }>({
      query: ({ id, body }) => request(usersEndpoints.update, { params: { id }, body }),
      invalidatesTags: ['User'],
    }),
    deleteUser: build.mutation<ResponseOf<E['remove']>, number>({
      query: (id) => request(usersEndpoints.remove, { params: { id } }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const { useUsersQuery, useUserQuery, useCreateUserMutation, useUpdateUserMutation, useDeleteUserMutation } = usersApi;

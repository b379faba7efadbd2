import type { CreateUserBody, ListQueryInput, ResponseOf, UpdateUserBody, usersEndpoints } from '@vigil/contracts';
import { usersRoutes } from '@vigil/contracts/routes';
import { api, request } from '../../lib/api/apiSlice.ts';

type E = typeof usersEndpoints;

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    users: build.query<ResponseOf<E['list']>, ListQueryInput>({
      query: (list) => request(usersRoutes.list, { list }),
      providesTags: ['User'],
    }),
    user: build.query<ResponseOf<E['get']>, number>({
      query: (id) => request(usersRoutes.get, { params: { id } }),
      providesTags: (_r, _e, id) => [{ type: 'User', id }],
    }),
    createUser: build.mutation<ResponseOf<E['create']>, CreateUserBody>({
      query: (body) => request(usersRoutes.create, { body }),
      invalidatesTags: ['User'],
    }),
    updateUser: build.mutation<ResponseOf<E['update']>, { id: number; body: UpdateUserBody }>({
      query: ({ id, body }) => request(usersRoutes.update, { params: { id }, body }),
      invalidatesTags: ['User'],
    }),
    deleteUser: build.mutation<ResponseOf<E['remove']>, number>({
      query: (id) => request(usersRoutes.remove, { params: { id } }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const { useUsersQuery, useUserQuery, useCreateUserMutation, useUpdateUserMutation, useDeleteUserMutation } = usersApi;

import type { ResponseOf, authEndpoints } from '@vigil/contracts';
import { authRoutes } from '@vigil/contracts/routes';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type E = typeof authEndpoints;

/** Auth calls (docs/decisions.md 20). Login and refresh also set the httpOnly refresh cookie. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<ResponseOf<E['login']>, RequestBodyOf<E['login']>>({
      query: (body) => request(authRoutes.login, { body }),
    }),
    register: build.mutation<ResponseOf<E['register']>, { name: string; email: string; phone: string; password: string }>({
      query: (body) => request(authRoutes.register, { body }),
    }),
    logout: build.mutation<ResponseOf<E['logout']>, void>({
      query: () => request(authRoutes.logout, { body: {} }),
      extraOptions: { silent: true },
    }),
    verifyEmail: build.mutation<ResponseOf<E['verifyEmail']>, { token: string }>({
      query: (body) => request(authRoutes.verifyEmail, { body }),
      extraOptions: { silent: true },
    }),
    passwordReset: build.mutation<ResponseOf<E['passwordReset']>, { email: string }>({
      query: (body) => request(authRoutes.passwordReset, { body }),
    }),
    passwordConfirmation: build.mutation<
      ResponseOf<E['passwordConfirmation']>,
      { token: string; newPassword: string; confirmPassword: string }
    >({
      query: (body) => request(authRoutes.passwordConfirmation, { body }),
    }),
    accountDelete: build.mutation<ResponseOf<E['accountDelete']>, { password: string }>({
      query: (body) => request(authRoutes.accountDelete, { body }),
    }),
    me: build.query<ResponseOf<E['me']>, void>({
      query: () => request(authRoutes.me),
      providesTags: ['Me'],
    }),
    updateMe: build.mutation<ResponseOf<E['updateMe']>, RequestBodyOf<E['updateMe']>>({
      query: (body) => request(authRoutes.updateMe, { body }),
      invalidatesTags: ['Me'],
    }),
    changePassword: build.mutation<
      ResponseOf<E['changePassword']>,
      { email: string; currentPassword: string; newPassword: string; confirmPassword: string }
    >({
      query: (body) => request(authRoutes.changePassword, { body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useLogoutMutation,
  useVerifyEmailMutation,
  usePasswordResetMutation,
  usePasswordConfirmationMutation,
  useAccountDeleteMutation,
  useMeQuery,
  useUpdateMeMutation,
  useChangePasswordMutation,
} = authApi;

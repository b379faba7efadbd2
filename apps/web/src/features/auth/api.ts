import { authEndpoints, type ResponseOf } from '@vigil/contracts';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type E = typeof authEndpoints;

/** Auth calls (decisions.md §3). Login and refresh also set the httpOnly refresh cookie. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<ResponseOf<E['login']>, RequestBodyOf<E['login']>>({
      query: (body) => request(authEndpoints.login, { body }),
    }),
    register: build.mutation<ResponseOf<E['register']>, { name: string; email: string; phone: string; password: string }>({
      query: (body) => request(authEndpoints.register, { body }),
    }),
    logout: build.mutation<ResponseOf<E['logout']>, void>({
      query: () => request(authEndpoints.logout, { body: {} }),
      extraOptions: { silent: true },
    }),
    verifyEmail: build.mutation<ResponseOf<E['verifyEmail']>, { token: string }>({
      query: (body) => request(authEndpoints.verifyEmail, { body }),
      extraOptions: { silent: true },
    }),
    passwordReset: build.mutation<ResponseOf<E['passwordReset']>, { email: string }>({
      query: (body) => request(authEndpoints.passwordReset, { body }),
    }),
    passwordConfirmation: build.mutation<ResponseOf<E['passwordConfirmation']>, { token: string; newPassword: string; confirmPassword: string }>({
      query: (body) => request(authEndpoints.passwordConfirmation, { body }),
    }),
    accountDelete: build.mutation<ResponseOf<E['accountDelete']>, { password: string }>({
      query: (body) => request(authEndpoints.accountDelete, { body }),
    }),
    me: build.query<ResponseOf<E['me']>, void>({
      query: () => request(authEndpoints.me),
      providesTags: ['Me'],
    }),
    updateMe: build.mutation<ResponseOf<E['updateMe']>, RequestBodyOf<E['updateMe']>>({
      query: (body) => request(authEndpoints.updateMe, { body }),
      invalidatesTags: ['Me'],
    }),
    changePassword: build.mutation<
      ResponseOf<E['changePassword']>,
      { email: string; currentPassword: string; newPassword: string; confirmPassword: string }
    >({
      query: (body) => request(authEndpoints.changePassword, { body }),
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

import { billingEndpoints, type ResponseOf } from '@vigil/contracts';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type E = typeof billingEndpoints;

/** Subscription calls (docs/decisions.md 35): hosted checkout or card dialog, then a server-side confirmation. */
export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    registerWithSubscription: build.mutation<ResponseOf<E['registerWithSubscription']>, RequestBodyOf<E['registerWithSubscription']>>({
      query: (body) => request(billingEndpoints.registerWithSubscription, { body }),
      invalidatesTags: ['Tenant'],
    }),
    verifyCheckoutSession: build.mutation<ResponseOf<E['verifyCheckoutSession']>, RequestBodyOf<E['verifyCheckoutSession']>>({
      query: (body) => request(billingEndpoints.verifyCheckoutSession, { body }),
      // The page shows the product's own failure text instead of the generic notification.
      extraOptions: { silent: true },
      invalidatesTags: ['Tenant', 'Billing'],
    }),
    /** The card dialog's path (PAYMENTS=stripe with a publishable key): the subscription and the intent to confirm. */
    registerWithCardSubscription: build.mutation<
      ResponseOf<E['registerWithCardSubscription']>,
      RequestBodyOf<E['registerWithCardSubscription']>
    >({
      query: (body) => request(billingEndpoints.registerWithCardSubscription, { body }),
      invalidatesTags: ['Tenant'],
    }),
    confirmCardSubscription: build.mutation<ResponseOf<E['confirmCardSubscription']>, RequestBodyOf<E['confirmCardSubscription']>>({
      query: (body) => request(billingEndpoints.confirmCardSubscription, { body }),
      // The dialog shows the product's own texts instead of the generic notification.
      extraOptions: { silent: true },
      invalidatesTags: ['Tenant', 'Billing'],
    }),
  }),
});

export const {
  useRegisterWithSubscriptionMutation,
  useVerifyCheckoutSessionMutation,
  useRegisterWithCardSubscriptionMutation,
  useConfirmCardSubscriptionMutation,
} = billingApi;

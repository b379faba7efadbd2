import { billingEndpoints, type ResponseOf } from '@vigil/contracts';
import { api, request, type RequestBodyOf } from '../../lib/api/apiSlice.ts';

type E = typeof billingEndpoints;

/** Subscription calls (decisions.md §7): hosted checkout, then a server-side confirmation. */
export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    registerWithSubscription: build.mutation<ResponseOf<E['registerWithSubscription']>, RequestBodyOf<E['registerWithSubscription']>>({
      query: (body) => request(billingEndpoints.registerWithSubscription, { body }),
      invalidatesTags: ['Tenant'],
    }),
    verifyCheckoutSession: build.mutation<ResponseOf<E['verifyCheckoutSession']>, RequestBodyOf<E['verifyCheckoutSession']>>({
      query: (body) => request(billingEndpoints.verifyCheckoutSession, { body }),
      // The page shows the spec's own failure text instead of the generic notification.
      extraOptions: { silent: true },
      invalidatesTags: ['Tenant', 'Billing'],
    }),
  }),
});

export const { useRegisterWithSubscriptionMutation, useVerifyCheckoutSessionMutation } = billingApi;

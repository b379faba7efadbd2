import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { MSG } from '@vigil/contracts';
import { useAppDispatch } from '../../lib/state/hooks.ts';
import { notify } from '../../lib/notify.ts';
import { tokensReceived } from '../../lib/session/authSlice.ts';

/**
 * The card dialog's end once the server confirmed the payment with Stripe: the activated
 * session (its token carries the tenant), the docs/product.md "Messages" toast, then Pulse, as the hosted
 * checkout's return does (useCheckoutReturn).
 */
export function usePaymentDone(): (accessToken: string | undefined) => void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(
    (accessToken) => {
      if (accessToken) dispatch(tokensReceived({ accessToken }));
      notify.success(MSG.paymentSuccessful);
      void navigate('/dashboards/pulse', { replace: true });
    },
    [dispatch, navigate],
  );
}

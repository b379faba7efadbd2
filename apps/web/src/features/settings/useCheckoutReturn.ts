import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { MSG } from '@vigil/contracts';
import { useAppDispatch } from '../../lib/state/hooks.ts';
import { notify } from '../../lib/notify.ts';
import { tokensReceived } from '../../lib/session/authSlice.ts';
import { useVerifyCheckoutSessionMutation } from './billingApi.ts';

const RETURN_PARAMS = ['stripe_success', 'session_id', 'tenant_id', 'billing_id'];

/**
 * The return from the hosted checkout (docs/decisions.md 35, docs/web.md "Subscription"): the flag is never trusted,
 * the server confirms with the provider. Paid: new tokens, toast, Pulse. Not paid:
 * toast and the welcome dialog again. Request failure: the product's failure toast.
 */
export function useCheckoutReturn(onNotPaid: () => void) {
  const [params, setParams] = useSearchParams();
  const [verify] = useVerifyCheckoutSessionMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const handled = useRef(false);
  const sessionId = params.get('session_id');
  const success = params.get('stripe_success');
  const tenantId = params.get('tenant_id');

  useEffect(() => {
    if (!sessionId || handled.current) return;
    handled.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of RETURN_PARAMS) next.delete(key);
        return next;
      },
      { replace: true },
    );
    void (async () => {
      const result = await verify({ sessionId, tenantId: tenantId ?? undefined, success: success ?? undefined });
      if (!('data' in result) || !result.data) {
        notify.error(MSG.subscriptionFailed);
        return;
      }
      const { paymentStatus, accessToken } = result.data.data;
      if (success === 'true' && paymentStatus === 'paid') {
        if (accessToken) dispatch(tokensReceived({ accessToken }));
        notify.success(MSG.subscriptionActivated);
        void navigate('/dashboards/pulse', { replace: true });
      } else {
        notify.warning(MSG.subscriptionCancelled);
        onNotPaid();
      }
    })();
  }, [sessionId, success, tenantId, verify, dispatch, navigate, setParams, onNotPaid]);
}

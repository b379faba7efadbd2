import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { MSG } from '@vigil/contracts';
import { notify } from '../../lib/notify.ts';

/** Interprets the payment flow's marker: `?success` / `?success=true` or `?failed` / `?success=false`. */
export function paymentOutcome(params: URLSearchParams): 'success' | 'failed' | null {
  if (params.has('failed')) return 'failed';
  if (!params.has('success')) return null;
  const v = params.get('success');
  return v === 'false' || v === '0' ? 'failed' : 'success';
}

/** On load, a success or failure marker from the payment flow shows a toast once and leaves the URL. */
export function usePaymentMarker() {
  const [params, setParams] = useSearchParams();
  const handled = useRef(false);
  const outcome = paymentOutcome(params);
  useEffect(() => {
    if (!outcome || handled.current) return;
    handled.current = true;
    if (outcome === 'success') notify.success(MSG.paymentSuccessful);
    else notify.error('Payment failed');
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('success');
        next.delete('failed');
        return next;
      },
      { replace: true },
    );
  }, [outcome, setParams]);
}

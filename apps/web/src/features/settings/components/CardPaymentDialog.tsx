import { Elements } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
// The pure entry injects Stripe.js only when loadStripe is called (the plain entry does it on import).
import { loadStripe } from '@stripe/stripe-js/pure';
import { Modal } from 'antd';
import { useMemo } from 'react';
import type { CardSubscriptionIntent } from '@vigil/contracts';
import { CardPaymentForm } from './CardPaymentForm.tsx';

/** One Stripe instance per key for the page's life (Stripe's advice); a failed load is tried again next time. */
const instances = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let instance = instances.get(publishableKey);
  if (!instance) {
    instance = loadStripe(publishableKey).then(
      (loaded) => {
        if (!loaded) instances.delete(publishableKey);
        return loaded;
      },
      () => {
        instances.delete(publishableKey);
        return null;
      },
    );
    instances.set(publishableKey, instance);
  }
  return instance;
}

export interface CardPaymentDialogProps {
  intent: CardSubscriptionIntent;
  onClose: () => void;
  /** A Stripe (or Stripe-like, in tests) object; by default Stripe.js is loaded with the intent's publishable key. */
  stripe?: Stripe | Promise<Stripe | null> | null;
}

/**
 * The card payment dialog of PAYMENTS=stripe (docs/web.md "Subscription": 'Enter Payment Details',
 * Pay). Loaded lazily from Settings (its own chunk): Stripe.js is fetched only when it opens.
 * If Stripe.js cannot load, Elements gets null and Pay answers 'Stripe has not loaded yet'.
 */
export default function CardPaymentDialog({ intent, onClose, stripe }: CardPaymentDialogProps) {
  const stripePromise = useMemo(() => (stripe !== undefined ? stripe : stripeFor(intent.publishableKey)), [stripe, intent.publishableKey]);
  return (
    <Modal open title="Enter Payment Details" onCancel={onClose} footer={null} destroyOnHidden maskClosable={false} width={520}>
      <Elements stripe={stripePromise}>
        <CardPaymentForm intent={intent} onCancel={onClose} />
      </Elements>
    </Modal>
  );
}

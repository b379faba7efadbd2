import { LockOutlined } from '@ant-design/icons';
import { CardElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { StripeCardElementOptions } from '@stripe/stripe-js';
import { Alert, Button, Flex, Typography, theme } from 'antd';
import { useMemo, useState } from 'react';
import { LIMITS, MSG, type CardSubscriptionIntent } from '@vigil/contracts';
import { useConfirmCardSubscriptionMutation } from '../billingApi.ts';
import { usePaymentDone } from '../usePaymentDone.ts';

/**
 * The card form inside <Elements>: Stripe.js confirms the intent the server answered (the
 * card goes to Stripe only), then the server is asked to confirm with Stripe itself; only
 * its 'paid' activates the session. Errors stay in the dialog so another card can be tried.
 */
/** `onCancel` closes the dialog: on Cancel, and once the payment is done. */
export function CardPaymentForm({ intent, onCancel }: { intent: CardSubscriptionIntent; onCancel: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [confirmSubscription] = useConfirmCardSubscriptionMutation();
  const done = usePaymentDone();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { token } = theme.useToken();
  const options = useMemo<StripeCardElementOptions>(
    () => ({
      hidePostalCode: false,
      style: {
        base: {
          color: token.colorText,
          fontFamily: token.fontFamily,
          fontSize: `${token.fontSize}px`,
          '::placeholder': { color: token.colorTextPlaceholder },
        },
        invalid: { color: token.colorError },
      },
    }),
    [token.colorText, token.fontFamily, token.fontSize, token.colorTextPlaceholder, token.colorError],
  );

  const pay = async () => {
    setError(undefined);
    if (!stripe || !elements) return setError(MSG.stripeNotLoaded);
    const card = elements.getElement(CardElement);
    if (!card) return setError(MSG.cardElementNotFound);
    setBusy(true);
    try {
      const confirmed =
        intent.intentType === 'setup'
          ? await stripe.confirmCardSetup(intent.clientSecret, { payment_method: { card } })
          : await stripe.confirmCardPayment(intent.clientSecret, { payment_method: { card } });
      // A declined or incomplete card: Stripe's own words (e.g. 'Your card was declined.').
      if (confirmed.error) return setError(confirmed.error.message || MSG.paymentFailed);
      const answer = await confirmSubscription({ billingId: intent.billingId });
      if (!('data' in answer) || !answer.data) return setError(MSG.paymentProcessingFailed);
      if (answer.data.data.paymentStatus !== 'paid') return setError(MSG.paymentFailed);
      done(answer.data.data.accessToken);
      onCancel();
    } catch {
      setError(MSG.paymentProcessingFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Typography.Text type="secondary">
        {intent.intentType === 'setup'
          ? `Nothing is charged today: your card is kept for after the one-month free trial (${LIMITS.pricePerPortalUsd} USD monthly per portal).`
          : `Your card is charged ${LIMITS.pricePerPortalUsd} USD per portal for the first month.`}
      </Typography.Text>
      <div
        data-testid="card-element"
        style={{
          padding: '10px 11px',
          border: `1px solid ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          background: token.colorBgContainer,
        }}
      >
        <CardElement options={options} onChange={() => setError(undefined)} />
      </div>
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, marginTop: -8 }}>
        <LockOutlined /> Card details go to Stripe directly; Vigil never sees them.
      </Typography.Text>
      {error && <Alert type="error" showIcon title={error} />}
      <Flex justify="end" gap={8}>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="primary" onClick={pay} loading={busy}>
          Pay
        </Button>
      </Flex>
    </Flex>
  );
}

import { Button, Modal, Typography } from 'antd';
import { LIMITS, type CardSubscriptionIntent } from '@vigil/contracts';
import { useClientConfigQuery } from '../../../lib/api/clientConfigApi.ts';
import { useRegisterWithCardSubscriptionMutation, useRegisterWithSubscriptionMutation } from '../billingApi.ts';
import type { TenantFormValues } from '../../tenants/index.ts';

export const TRIAL_TEXT = `Your subscription starts with a one-month free trial. After the trial, it is ${LIMITS.pricePerPortalUsd} USD monthly per portal.`;

/** Redirects the browser to the provider's hosted checkout (a full page load, outside the router). */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}

/**
 * PAYMENTS=stripe with a publishable key takes the card in the app's dialog; otherwise (or if the
 * settings cannot be read) the hosted checkout. `deciding` while the settings are on their way.
 */
export function useCardPayments(): { cards: boolean; deciding: boolean } {
  const { data: config, isLoading } = useClientConfigQuery();
  return { cards: config?.payments === 'stripe' && Boolean(config.stripePublishableKey), deciding: isLoading };
}

/**
 * The welcome dialog before payment (docs/web.md "Subscription", docs/product.md "Constants"): trial and price text, 'Close' and
 * 'Go To Payment', which for the tenant form's values opens the hosted checkout or, with
 * card payments, creates the subscription and hands its intent to the card dialog.
 */
export function WelcomeDialog({
  open,
  onClose,
  values,
  onCardIntent,
}: {
  open: boolean;
  onClose: () => void;
  values: () => TenantFormValues | undefined;
  onCardIntent: (intent: CardSubscriptionIntent) => void;
}) {
  const { cards, deciding } = useCardPayments();
  const [register, { isLoading }] = useRegisterWithSubscriptionMutation();
  const [registerCard, { isLoading: isOpeningCard }] = useRegisterWithCardSubscriptionMutation();
  const pay = async () => {
    const body = values();
    if (!body) return onClose();
    if (cards) {
      const result = await registerCard(body);
      if ('data' in result && result.data) onCardIntent(result.data.data.intent);
      return;
    }
    const result = await register(body);
    if ('data' in result && result.data) goToCheckout(result.data.data.checkout.url);
  };
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title="Welcome to Vigil!"
      footer={[
        <Button key="close" onClick={onClose}>
          Close
        </Button>,
        <Button key="pay" type="primary" loading={deciding || isLoading || isOpeningCard} onClick={pay}>
          Go To Payment
        </Button>,
      ]}
    >
      <Typography.Paragraph>Your company is set up. One step is left before you connect your first portal.</Typography.Paragraph>
      <Typography.Paragraph strong>{TRIAL_TEXT}</Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {cards
          ? 'You will enter your card in the next step; it goes to Stripe directly and nothing is charged during the trial.'
          : "You will enter your card on the payment provider's secure page; nothing is charged during the trial."}
      </Typography.Paragraph>
    </Modal>
  );
}

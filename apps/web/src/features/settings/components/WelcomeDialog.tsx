import { Button, Modal, Typography } from 'antd';
import { LIMITS } from '@vigil/contracts';
import { useRegisterWithSubscriptionMutation } from '../billingApi.ts';
import type { TenantFormValues } from '../../tenants/components/TenantFormFields.tsx';

export const TRIAL_TEXT = `Your subscription starts with a one-month free trial. After the trial, it is ${LIMITS.pricePerPortalUsd} USD monthly per portal.`;

/** Redirects the browser to the provider's hosted checkout (a full page load, outside the router). */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}

/**
 * The welcome dialog before payment (spec §2, §9): trial and price text, 'Close' and
 * 'Go To Payment', which opens the hosted checkout for the tenant form's values.
 */
export function WelcomeDialog({ open, onClose, values }: { open: boolean; onClose: () => void; values: () => TenantFormValues | undefined }) {
  const [register, { isLoading }] = useRegisterWithSubscriptionMutation();
  const pay = async () => {
    const body = values();
    if (!body) return onClose();
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
        <Button key="pay" type="primary" loading={isLoading} onClick={pay}>
          Go To Payment
        </Button>,
      ]}
    >
      <Typography.Paragraph>Your company is set up. One step is left before you connect your first portal.</Typography.Paragraph>
      <Typography.Paragraph strong>{TRIAL_TEXT}</Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        You will enter your card on the payment provider's secure page; nothing is charged during the trial.
      </Typography.Paragraph>
    </Modal>
  );
}

import { Card, Form, Tabs } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import type { CardSubscriptionIntent } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { cleanTenantForm, type TenantFormValues } from '../../tenants/index.ts';
import { NotificationChannelsPanel } from '../../notifications/index.ts';
import { ProfilePanel } from '../components/ProfilePanel.tsx';
import { TenantPanel } from '../components/TenantPanel.tsx';
import { WelcomeDialog } from '../components/WelcomeDialog.tsx';
import { useCheckoutReturn } from '../useCheckoutReturn.ts';

// Its own chunk with Stripe Elements: fetched (and Stripe.js loaded) only when a card is to be entered.
const CardPaymentDialog = lazy(() => import('../components/CardPaymentDialog.tsx'));

/** Settings (docs/web.md "Pages of web I"): superAdmin sees only the profile; others Profile and Tenant (Tenant first without a tenant). */
export default function SettingsPage() {
  const auth = useAuth();
  const [tab, setTab] = useState(auth.tenantId === -1 ? 'tenant' : window.location.hash === '#notifications' ? 'notifications' : 'profile');
  const [welcomeOpen, setWelcomeOpen] = useState(false);
  const [cardIntent, setCardIntent] = useState<CardSubscriptionIntent>();
  const [form] = Form.useForm<TenantFormValues>();
  const openWelcome = useCallback(() => {
    setTab('tenant');
    setWelcomeOpen(true);
  }, []);
  useCheckoutReturn(openWelcome);

  if (isSuperAdmin(auth))
    return (
      <>
        <PageHeader title="Settings" />
        <Card title="Profile">
          <ProfilePanel />
        </Card>
      </>
    );

  return (
    <>
      <PageHeader title="Settings" />
      <Card>
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            { key: 'profile', label: 'Profile', children: <ProfilePanel /> },
            { key: 'tenant', label: 'Tenant', forceRender: true, children: <TenantPanel form={form} onNeedsSubscription={openWelcome} /> },
            ...(auth.tenantId > 0 ? [{ key: 'notifications', label: 'Notifications', children: <NotificationChannelsPanel /> }] : []),
          ]}
        />
      </Card>
      <WelcomeDialog
        open={welcomeOpen}
        onClose={() => setWelcomeOpen(false)}
        onCardIntent={(intent) => {
          setWelcomeOpen(false);
          setCardIntent(intent);
        }}
        values={() => {
          // The form store also holds the loaded tenant's other fields: send only the form's six.
          const v = form.getFieldsValue(true) as TenantFormValues;
          return v.name ? cleanTenantForm(v) : undefined;
        }}
      />
      {cardIntent && (
        <Suspense fallback={null}>
          <CardPaymentDialog intent={cardIntent} onClose={() => setCardIntent(undefined)} />
        </Suspense>
      )}
    </>
  );
}

import { Alert, Button, Descriptions, Form, Skeleton } from 'antd';
import { useEffect } from 'react';
import { MSG } from '@vigil/contracts';
import { useAppDispatch, useAuth } from '../../../lib/state/hooks.ts';
import { ErrorState } from '../../../components/TableStates.tsx';
import { notify } from '../../../lib/notify.ts';
import { tokensReceived, type AuthState } from '../../../lib/session/authSlice.ts';
import {
  useCreateTenantMutation,
  useTenantQuery,
  useUpdateTenantMutation,
  cleanTenantForm,
  tenantFormDefaults,
  TenantFormFields,
  type TenantFormValues,
} from '../../tenants/index.ts';
import type { FormInstance } from 'antd';
import { MonitoringSettings } from './MonitoringSettings.tsx';
import { mayDo } from '../../../lib/session/permissions.ts';

/** docs/decisions.md 37: saving tenant info is for superAdmin, Admin, or a user with no roles and tenantId -1. */
export function maySaveTenant(auth: Pick<AuthState, 'roles' | 'tenantId'>): boolean {
  return auth.roles.includes('superAdmin') || auth.roles.includes('Admin') || (auth.roles.length === 0 && auth.tenantId === -1);
}

const ACTIVE = ['trialing', 'active'];

/**
 * The Tenant tab. A user without a tenant creates it here (and becomes its Admin);
 * then, without an active subscription, the welcome dialog opens (`onNeedsSubscription`).
 */
export function TenantPanel({ form, onNeedsSubscription }: { form: FormInstance<TenantFormValues>; onNeedsSubscription: () => void }) {
  const auth = useAuth();
  const dispatch = useAppDispatch();
  const hasTenant = auth.tenantId > 0;
  // Project Managers and Salesmen may not read the tenant record (docs/web.md "Roles"): no call, a note.
  const mayRead = mayDo('tenants:own', auth);
  const { data, isLoading, error, refetch } = useTenantQuery(auth.tenantId, { skip: !hasTenant || !mayRead });
  const [create, { isLoading: creating }] = useCreateTenantMutation();
  const [update, { isLoading: updating }] = useUpdateTenantMutation();
  const tenant = data?.data;
  const allowed = maySaveTenant(auth);
  useEffect(() => {
    if (tenant) form.setFieldsValue(tenant);
  }, [tenant, form]);

  const onFinish = async (values: TenantFormValues) => {
    const body = cleanTenantForm(values);
    if (!hasTenant) {
      const result = await create(body);
      if (!('data' in result) || !result.data) return;
      if (result.data.data.accessToken) dispatch(tokensReceived({ accessToken: result.data.data.accessToken }));
      notify.success(MSG.tenantUpdated);
      if (!result.data.data.freeTier && !ACTIVE.includes(result.data.data.subscriptionStatus)) onNeedsSubscription();
      return;
    }
    const result = await update({ id: auth.tenantId, body });
    if (!('data' in result) || !result.data) return;
    notify.success(MSG.tenantUpdated);
    if (auth.roles.includes('Admin') && !result.data.data.freeTier && !ACTIVE.includes(result.data.data.subscriptionStatus))
      onNeedsSubscription();
  };

  if (hasTenant && !mayRead)
    return (
      <>
        <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label="Tenant">{auth.tenantName || '-'}</Descriptions.Item>
        </Descriptions>
        <Alert type="info" showIcon title="Only an Admin can view and change the tenant's information." />
      </>
    );
  if (hasTenant && isLoading) return <Skeleton active />;
  if (hasTenant && error) return <ErrorState error={error} onRetry={refetch} />;
  return (
    <>
      {!hasTenant && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="Set up your company"
          description="Fill in your company's details to create your tenant. You then start the one-month free trial."
        />
      )}
      {!allowed && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title="Only an Admin can change the tenant's information." />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={tenantFormDefaults}
        requiredMark={false}
        style={{ maxWidth: 880 }}
      >
        <TenantFormFields disabled={!allowed} />
        <Button type="primary" htmlType="submit" disabled={!allowed} loading={creating || updating}>
          Save
        </Button>
      </Form>
      {tenant && <MonitoringSettings tenant={tenant} disabled={!allowed} />}
    </>
  );
}

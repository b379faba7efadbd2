import { Button, Card, Descriptions, Form, Skeleton, Tag } from 'antd';
import { useEffect } from 'react';
import { useLocation, useParams } from 'react-router';
import { MSG } from '@vigil/contracts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ErrorState } from '../../../components/TableStates.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { notify } from '../../../lib/notify.ts';
import { useTenantQuery, useUpdateTenantMutation } from '../api.ts';
import { CommercialTermsCard } from '../components/CommercialTermsCard.tsx';
import { cleanTenantForm, TenantFormFields, type TenantFormValues } from '../components/TenantFormFields.tsx';

/** A tenant's info, editable by the superAdmin. The name comes from navigation state while loading. */
export default function TenantDetailPage() {
  const id = Number(useParams().id);
  const stateName = (useLocation().state as { tenantName?: string } | null)?.tenantName;
  const { data, isLoading, error, refetch } = useTenantQuery(id);
  const [update, { isLoading: saving }] = useUpdateTenantMutation();
  const [form] = Form.useForm<TenantFormValues>();
  const tenant = data?.data;
  useEffect(() => {
    if (tenant) form.setFieldsValue(tenant);
  }, [tenant, form]);

  const onFinish = async (values: TenantFormValues) => {
    const result = await update({ id, body: cleanTenantForm(values) });
    if ('data' in result) notify.success(MSG.tenantUpdated);
  };

  const name = tenant?.name ?? stateName ?? 'Tenant';
  return (
    <>
      <PageHeader title={name} lastCrumb={name} />
      {error ? (
        <ErrorState error={error} onRetry={refetch} />
      ) : isLoading ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : (
        <>
          {tenant && (
            <Card style={{ marginBottom: 16 }}>
              <Descriptions
                size="small"
                column={{ xs: 1, sm: 2, lg: 4 }}
                items={[
                  {
                    key: 's',
                    label: 'Subscription',
                    children: <Tag color={tenant.subscriptionStatus === 'none' ? 'default' : 'green'}>{tenant.subscriptionStatus}</Tag>,
                  },
                  { key: 'f', label: 'Free portals', children: `${tenant.remainingCount} of ${tenant.freeCount} left` },
                  { key: 't', label: 'Free tier', children: tenant.freeTier ? 'Yes' : 'No' },
                  { key: 'c', label: 'Created', children: formatDate(tenant.createdAt) },
                ]}
              />
            </Card>
          )}
          <Card title="Tenant information">
            <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
              <TenantFormFields />
              <Button type="primary" htmlType="submit" loading={saving}>
                Save
              </Button>
            </Form>
          </Card>
          {tenant && <CommercialTermsCard tenant={tenant} />}
        </>
      )}
    </>
  );
}

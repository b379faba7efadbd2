import { Button, Card, Col, Form, InputNumber, Row, Switch } from 'antd';
import { useEffect } from 'react';
import { MSG, type Tenant } from '@vigil/contracts';
import { notify } from '../../../lib/notify.ts';
import { useUpdateTenantMutation } from '../api.ts';

interface TermsForm {
  freeCount: number;
  freeTier: boolean;
  discount: number;
}

/** Commercial terms only the superAdmin sets (docs/decisions.md 36): free portals, free tier, discount. */
export function CommercialTermsCard({ tenant }: { tenant: Tenant }) {
  const [form] = Form.useForm<TermsForm>();
  const [update, { isLoading }] = useUpdateTenantMutation();
  useEffect(() => form.setFieldsValue(tenant), [tenant, form]);
  const onFinish = async (v: TermsForm) => {
    const result = await update({ id: tenant.id, body: { freeCount: v.freeCount, freeTier: v.freeTier, discount: v.discount } });
    if ('data' in result) notify.success(MSG.tenantUpdated);
  };
  return (
    <Card title="Commercial terms" style={{ marginTop: 16 }}>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              label="Free portals"
              name="freeCount"
              rules={[{ required: true, message: MSG.required }]}
              extra="Portals this tenant never pays for."
            >
              <InputNumber min={0} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              label="Discount"
              name="discount"
              rules={[{ required: true, message: MSG.required }]}
              extra="Percent off the per-portal price."
            >
              <InputNumber min={0} max={100} suffix="%" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Free tier" name="freeTier" valuePropName="checked" extra="A free-tier tenant never pays.">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Button htmlType="submit" loading={isLoading}>
          Save terms
        </Button>
      </Form>
    </Card>
  );
}

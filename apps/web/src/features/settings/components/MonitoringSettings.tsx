import { Button, Col, Divider, Form, Input, InputNumber, Row } from 'antd';
import { useEffect } from 'react';
import { HEARTBEAT_TIMEOUT_MINUTES, MSG, TENANT_MSG, isTimeZone, type Tenant } from '@vigil/contracts';
import { notify } from '../../../lib/notify.ts';
import { useUpdateTenantMutation } from '../../tenants/index.ts';

interface MonitoringForm {
  heartbeatTimeout: number;
  timezone: string;
}

/**
 * Tenant monitoring settings (docs/decisions.md 26, 33): minutes without a report before a
 * device counts as offline, and the time zone reports are aligned to.
 */
export function MonitoringSettings({ tenant, disabled }: { tenant: Tenant; disabled: boolean }) {
  const [form] = Form.useForm<MonitoringForm>();
  const [update, { isLoading }] = useUpdateTenantMutation();
  useEffect(() => form.setFieldsValue(tenant), [tenant, form]);
  const onFinish = async (v: MonitoringForm) => {
    const result = await update({ id: tenant.id, body: { heartbeatTimeout: v.heartbeatTimeout, timezone: v.timezone.trim() } });
    if ('data' in result) notify.success(MSG.tenantUpdated);
  };
  return (
    <>
      <Divider titlePlacement="start">Monitoring</Divider>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} style={{ maxWidth: 880 }}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              label="Heartbeat timeout"
              name="heartbeatTimeout"
              rules={[{ required: true, message: TENANT_MSG.heartbeatTimeout }]}
              extra="A device with no report for this long is offline."
            >
              <InputNumber
                disabled={disabled}
                min={HEARTBEAT_TIMEOUT_MINUTES.min}
                max={HEARTBEAT_TIMEOUT_MINUTES.max}
                precision={0}
                suffix="minutes"
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              label="Time zone"
              name="timezone"
              rules={[
                { required: true, whitespace: true, message: TENANT_MSG.timezone },
                {
                  validator: (_, v) =>
                    !v || isTimeZone(String(v).trim()) ? Promise.resolve() : Promise.reject(new Error(TENANT_MSG.timezone)),
                },
              ]}
              extra="Report periods (this week, month...) follow it."
            >
              <Input disabled={disabled} placeholder="Europe/Berlin" />
            </Form.Item>
          </Col>
        </Row>
        <Button htmlType="submit" disabled={disabled} loading={isLoading}>
          Save monitoring settings
        </Button>
      </Form>
    </>
  );
}

import { PlayCircleOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Modal, Spin } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MSG, type PortalForm } from '@vigil/contracts';
import { messageOf } from '../../../lib/errors.ts';
import { notify } from '../../../lib/notify.ts';
import { useCreatePortalMutation } from '../api.ts';

/** Where the help video on finding the API key lives (opens in a new tab). */
export const API_KEY_HELP_URL = '/dashboards/help#api-key';

/**
 * Add Portal (docs/web-pages.md "Pages"): Customer Name and API Key, width 726, a help link to the API-key
 * video; while submitting the button is disabled and a spinner covers the form. A 402
 * (no free portal and no subscription) shows its message with a way to the subscription.
 */
export function AddPortalDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<PortalForm>();
  const [create, { isLoading }] = useCreatePortalMutation();
  const [paymentNeeded, setPaymentNeeded] = useState<string | null>(null);
  const navigate = useNavigate();

  const close = () => {
    setPaymentNeeded(null);
    onClose();
  };
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the messages show under the fields
    setPaymentNeeded(null);
    const result = await create({ name: v.name.trim(), apiKey: v.apiKey.trim() });
    if ('error' in result && result.error) {
      if ('status' in result.error && result.error.status === 402) setPaymentNeeded(messageOf(result.error));
      else notify.error(messageOf(result.error));
      return;
    }
    const portal = result.data.data;
    notify.success(`Portal ${portal.name} added.`);
    form.resetFields();
    close();
    void navigate(`/dashboards/portals/${portal.id}`, { state: { customerName: portal.name } });
  };

  return (
    <Modal
      title="Add Portal"
      open={open}
      width={726}
      onCancel={close}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={submit} disabled={isLoading} loading={isLoading}>
          Add Portal
        </Button>
      }
    >
      <Spin spinning={isLoading} description="Adding portal">
        {paymentNeeded && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={paymentNeeded}
            action={
              <Link to="/dashboards/settings" onClick={close}>
                Go to subscription
              </Link>
            }
          />
        )}
        <Form form={form} layout="vertical" requiredMark={false} preserve={false} onFinish={submit}>
          <Form.Item label="Customer Name" name="name" rules={[{ required: true, whitespace: true, message: MSG.customerName }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item label="API Key" name="apiKey" rules={[{ required: true, whitespace: true, message: MSG.apiKey }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <a href={API_KEY_HELP_URL} target="_blank" rel="noopener noreferrer">
            <PlayCircleOutlined /> Watch: where to find the API key
          </a>
        </Form>
      </Spin>
    </Modal>
  );
}

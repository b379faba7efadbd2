import { SyncOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Popconfirm, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { MSG, type PortalDetail, type PortalForm } from '@vigil/contracts';
import { notify } from '../../../lib/notify.ts';
import { useRotateSecretMutation, useUpdatePortalMutation } from '../api.ts';

/** A read-only value with antd's copy button (tooltips 'Copy' / 'Copied'). */
function CopyField({ label, value }: { label: string; value: string | null }) {
  return (
    <Form.Item label={label}>
      {value ? (
        <Typography.Paragraph
          code
          copyable={{ text: value, tooltips: [`Copy ${label}`, 'Copied'] }}
          style={{ marginBottom: 0, wordBreak: 'break-all' }}
          aria-label={label}
        >
          {value}
        </Typography.Paragraph>
      ) : (
        <Typography.Text type="secondary">Visible to Admins and Project Managers</Typography.Text>
      )}
    </Form.Item>
  );
}

/**
 * Edit Portal (docs/web-pages.md "Pages"): Customer Name and API Key required, read-only copyable
 * Webhook URL and Shared Secret, rotate the secret, Scopes 'All Scopes', Save Portal.
 */
export function EditPortalDialog({ portal, open, onClose }: { portal: PortalDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<PortalForm>();
  const [update, { isLoading }] = useUpdatePortalMutation();
  const [rotate, rotation] = useRotateSecretMutation();
  useEffect(() => {
    if (open) form.setFieldsValue({ name: portal.name, apiKey: portal.apiKey });
  }, [open, portal.name, portal.apiKey, form]);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the messages show under the fields
    const result = await update({ id: portal.id, body: { name: v.name.trim(), apiKey: v.apiKey.trim() } });
    if (!('data' in result) || !result.data) return;
    notify.success('Portal saved.');
    onClose();
  };
  const rotateSecret = async () => {
    const result = await rotate(portal.id);
    if ('data' in result && result.data) notify.success('New shared secret issued. The previous one stays valid for 24 hours.');
  };

  return (
    <Modal
      title="Edit Portal"
      open={open}
      width={726}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={submit} loading={isLoading}>
          Save Portal
        </Button>
      }
      forceRender
    >
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item label="Customer Name" name="name" rules={[{ required: true, whitespace: true, message: MSG.customerName }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item label="API Key" name="apiKey" rules={[{ required: true, whitespace: true, message: MSG.apiKey }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <CopyField label="Webhook URL" value={portal.webhookUrl} />
        <CopyField label="Shared Secret" value={portal.webhookSecret} />
        {portal.webhookSecret && (
          <Popconfirm
            title="Issue a new shared secret? The current one keeps working for 24 hours."
            okText="Yes"
            cancelText="No"
            onConfirm={rotateSecret}
          >
            <Button icon={<SyncOutlined />} loading={rotation.isLoading} style={{ marginBottom: 16 }}>
              Rotate secret
            </Button>
          </Popconfirm>
        )}
        <Form.Item label="Scopes">
          <Tag>All Scopes</Tag>
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { SyncOutlined } from '@ant-design/icons';
import { Button, Checkbox, Form, Input, InputNumber, Modal, Popconfirm, Radio, Select, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect } from 'react';
import {
  NOTIFICATION_CHANNEL_TYPES,
  NOTIFICATION_DEFAULTS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_LIMITS,
  NOTIFY_MSG,
  emailTargetSchema,
  urlTargetSchema,
  type CreateChannelInput,
  type NotificationChannel,
  type NotificationChannelType,
  type NotificationEvent,
} from '@vigil/contracts';
import { useAllPortalsQuery } from '../../../lib/api/portalOptionsApi.ts';
import { messageOf } from '../../../lib/errors.ts';
import { validated } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { useCreateNotificationChannelMutation, useRotateNotificationSecretMutation, useUpdateNotificationChannelMutation } from '../api.ts';
import { CHANNEL_TOAST, CHANNEL_TYPE_LABEL, EVENT_LABEL } from '../labels.ts';

export interface ChannelFormValues {
  name: string;
  type: NotificationChannelType;
  /** Email channels: addresses, one a line (commas and semicolons also separate). */
  emails?: string;
  /** Webhook, Slack and Teams channels. */
  url?: string;
  enabled: boolean;
  events: NotificationEvent[];
  customerIds: number[];
  delayMinutes: number | null;
  repeatMinutes: number | null;
}

/** The addresses typed in the email box. */
export const splitAddresses = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/** A rule that checks a value with a contract schema and shows the schema's first message. */
function schemaRule(check: (value: unknown) => { success: boolean; error?: { issues: { message: string }[] } }): Rule {
  return {
    validator: (_rule, value: unknown) => {
      const result = check(value);
      return result.success ? Promise.resolve() : Promise.reject(new Error(result.error?.issues[0]?.message ?? NOTIFY_MSG.urlTarget));
    },
  };
}

function minutesRule(max: number, message: string): Rule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}

const emailRule = schemaRule((v) => emailTargetSchema.safeParse(splitAddresses(typeof v === 'string' ? v : '')));
const urlRule = schemaRule((v) => urlTargetSchema.safeParse(v ?? ''));

export const emptyChannelForm: ChannelFormValues = {
  name: '',
  type: 'webhook',
  emails: '',
  url: '',
  enabled: true,
  events: [...NOTIFICATION_DEFAULTS.events],
  customerIds: [],
  delayMinutes: NOTIFICATION_DEFAULTS.delayMinutes,
  repeatMinutes: NOTIFICATION_DEFAULTS.repeatMinutes,
};

export function formOfChannel(c: NotificationChannel): ChannelFormValues {
  const list = Array.isArray(c.target) ? c.target : [];
  return {
    name: c.name,
    type: c.type,
    emails: list.join('\n'),
    url: Array.isArray(c.target) ? '' : c.target,
    enabled: c.enabled,
    events: c.events,
    customerIds: c.customerIds,
    delayMinutes: c.delayMinutes,
    repeatMinutes: c.repeatMinutes,
  };
}

/** The request body of the form: the target the type needs, trimmed. */
export function bodyOfForm(v: ChannelFormValues): CreateChannelInput {
  return {
    name: v.name.trim(),
    type: v.type,
    target: v.type === 'email' ? splitAddresses(v.emails) : (v.url ?? '').trim(),
    enabled: v.enabled,
    events: v.events,
    customerIds: v.customerIds,
    delayMinutes: v.delayMinutes ?? NOTIFICATION_DEFAULTS.delayMinutes,
    repeatMinutes: v.repeatMinutes ?? NOTIFICATION_DEFAULTS.repeatMinutes,
  };
}

/** Server answers that belong to one field: shown under it as well as in the error toast. */
const FIELD_OF_MESSAGE: Record<string, keyof ChannelFormValues | 'target'> = {
  [NOTIFY_MSG.privateTarget]: 'target',
  [NOTIFY_MSG.unresolvableTarget]: 'target',
  [NOTIFY_MSG.unknownCustomer]: 'customerIds',
};

/** A read-only secret with antd's copy button. */
export function SecretField({ secret }: { secret: string }) {
  return (
    <Typography.Paragraph
      code
      copyable={{ text: secret, tooltips: ['Copy signing secret', 'Copied'] }}
      style={{ marginBottom: 0, wordBreak: 'break-all' }}
      aria-label="Signing secret"
    >
      {secret}
    </Typography.Paragraph>
  );
}

const URL_LABEL: Record<Exclude<NotificationChannelType, 'email'>, { label: string; placeholder: string }> = {
  webhook: { label: 'Webhook URL', placeholder: 'https://example.com/hooks/vigil' },
  slack: { label: 'Slack incoming-webhook URL', placeholder: 'https://hooks.slack.com/services/...' },
  teams: { label: 'Teams workflow URL', placeholder: 'https://...' },
};

/**
 * Add / Edit Channel (docs/web-pages.md "Notifications"): name, type, the target the type needs, events,
 * portals (none = every portal), delay, repeat and the enable switch; the contract's messages under the
 * fields. Editing a webhook channel shows its signing secret (to those who get it) with Rotate secret.
 * `onCreated` receives a new channel (the page shows a new webhook channel's secret).
 */
export function ChannelDialog({
  open,
  channel,
  onClose,
  onCreated,
}: {
  open: boolean;
  /** The channel to edit; none to add one. */
  channel?: NotificationChannel;
  onClose: () => void;
  onCreated?: (channel: NotificationChannel) => void;
}) {
  const [form] = Form.useForm<ChannelFormValues>();
  const type = Form.useWatch('type', form) ?? channel?.type ?? emptyChannelForm.type;
  const [create, creation] = useCreateNotificationChannelMutation();
  const [update, updating] = useUpdateNotificationChannelMutation();
  const [rotate, rotation] = useRotateNotificationSecretMutation();
  const portals = useAllPortalsQuery(undefined, { skip: !open });
  const editing = channel !== undefined;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(channel ? formOfChannel(channel) : emptyChannelForm);
  }, [open, channel, form]);

  const submit = async () => {
    const v = await validated(form);
    if (!v) return; // the messages show under the fields
    const body = bodyOfForm(v);
    const result = channel ? await update({ id: channel.id, body }) : await create(body);
    if (result.error) {
      const text = messageOf(result.error);
      const field = FIELD_OF_MESSAGE[text];
      if (field) form.setFields([{ name: field === 'target' ? (v.type === 'email' ? 'emails' : 'url') : field, errors: [text] }]);
      return;
    }
    notify.success(editing ? CHANNEL_TOAST.updated : CHANNEL_TOAST.created);
    form.resetFields();
    onClose();
    if (!editing) onCreated?.(result.data.data);
  };

  const rotateSecret = async () => {
    if (!channel) return;
    const result = await rotate(channel.id);
    if (result.data) notify.success(NOTIFY_MSG.secretRotated);
  };
  // The rotation answers the channel with its new secret; until the list refetches, show that one.
  const secret = rotation.data?.data.id === channel?.id ? (rotation.data?.data.secret ?? channel?.secret) : channel?.secret;

  return (
    <Modal
      title={editing ? 'Edit Channel' : 'Add Channel'}
      open={open}
      width={640}
      onCancel={onClose}
      onOk={submit}
      okText={editing ? 'Save Channel' : 'Add Channel'}
      confirmLoading={creation.isLoading || updating.isLoading}
      forceRender
    >
      <Form form={form} name="channel" layout="vertical" requiredMark={false} initialValues={emptyChannelForm}>
        <Form.Item
          label="Name"
          name="name"
          rules={[
            { required: true, whitespace: true, message: NOTIFY_MSG.name },
            { max: 200, message: 'at most 200 characters' },
          ]}
        >
          <Input autoComplete="off" placeholder="e.g. On-call team" />
        </Form.Item>
        <Form.Item label="Type" name="type" rules={[{ required: true, message: NOTIFY_MSG.type }]}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={NOTIFICATION_CHANNEL_TYPES.map((t) => ({ value: t, label: CHANNEL_TYPE_LABEL[t] }))}
          />
        </Form.Item>
        {type === 'email' ? (
          <Form.Item
            label="Email addresses"
            name="emails"
            extra={`One a line, or separated by commas (at most ${NOTIFICATION_LIMITS.emailAddressesMax}).`}
            rules={[emailRule]}
          >
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder="oncall@example.com" />
          </Form.Item>
        ) : (
          <Form.Item label={URL_LABEL[type].label} name="url" rules={[urlRule]}>
            <Input autoComplete="off" placeholder={URL_LABEL[type].placeholder} />
          </Form.Item>
        )}
        {editing && channel.type === 'webhook' && type === 'webhook' && secret && (
          <Form.Item label="Signing secret" extra="Receivers verify each delivery's signature with it (Standard Webhooks).">
            <SecretField secret={secret} />
            <Popconfirm
              title="Issue a new signing secret? Deliveries are signed with the new one from now on."
              okText="Yes"
              cancelText="No"
              onConfirm={rotateSecret}
            >
              <Button icon={<SyncOutlined />} loading={rotation.isLoading} style={{ marginTop: 8 }}>
                Rotate secret
              </Button>
            </Popconfirm>
          </Form.Item>
        )}
        <Form.Item label="Events" name="events" rules={[{ required: true, type: 'array', min: 1, message: NOTIFY_MSG.events }]}>
          <Checkbox.Group options={NOTIFICATION_EVENTS.map((e) => ({ value: e, label: EVENT_LABEL[e] }))} />
        </Form.Item>
        <Form.Item label="Portals" name="customerIds" extra="Leave empty to announce the alerts of every portal.">
          <Select
            mode="multiple"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            loading={portals.isLoading}
            placeholder="Every portal"
            maxTagCount="responsive"
            options={(portals.data?.data.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
        <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
          <Form.Item
            label="Delay (minutes)"
            name="delayMinutes"
            style={{ flex: '1 1 200px' }}
            extra="Announce an alert only if still open after this delay."
            rules={[minutesRule(NOTIFICATION_LIMITS.delayMinutesMax, NOTIFY_MSG.delayMinutes)]}
          >
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            label="Repeat every (minutes)"
            name="repeatMinutes"
            style={{ flex: '1 1 200px' }}
            extra="While open and not acknowledged; 0 = never."
            rules={[minutesRule(NOTIFICATION_LIMITS.repeatMinutesMax, NOTIFY_MSG.repeatMinutes)]}
          >
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
        </div>
        <Form.Item label="Enabled" name="enabled" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

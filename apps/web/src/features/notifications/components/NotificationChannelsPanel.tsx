import { DeleteOutlined, EditOutlined, HistoryOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { may, NOTIFICATION_CHANNEL_TYPES, NOTIFY_MSG, type NotificationChannel, type NotificationEvent } from '@vigil/contracts';
import { StatusDot } from '../../../components/StatusDot.tsx';
import { SecondaryText } from '../../../components/Text.tsx';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { useAllPortalsQuery } from '../../../lib/api/portalOptionsApi.ts';
import { notify } from '../../../lib/notify.ts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import {
  useDeleteNotificationChannelMutation,
  useNotificationChannelsQuery,
  useTestNotificationChannelMutation,
  useUpdateNotificationChannelMutation,
} from '../api.ts';
import { CHANNEL_TOAST, CHANNEL_TYPE_LABEL, DELETE_CONFIRM, EVENT_LABEL, minutesText, targetText } from '../labels.ts';
import { ChannelDialog, SecretField } from './ChannelDialog.tsx';

/** Where the delivery log lives (docs/web-pages.md "Notifications"). */
export const DELIVERY_LOG_PATH = '/dashboards/settings/notifications/deliveries';
export const deliveryLogOf = (channelId: number) => `${DELIVERY_LOG_PATH}?filter=${encodeURIComponent(JSON.stringify({ channelId }))}`;

const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'block' } as const;

/**
 * The Notifications tab of Settings (docs/web-pages.md "Notifications"): the tenant's channels with
 * search and type filter (list state in the address bar under `channels.`). Admins and Project Managers
 * add, edit, enable/disable, test and delete; every other role reads only.
 */
export function NotificationChannelsPanel() {
  const auth = useAuth();
  const writer = may('notifications:write', auth);
  const list = useListState({ prefix: 'channels.', sort: ['name', 'ASC'] });
  const { data, isLoading, isFetching, error, refetch } = useNotificationChannelsQuery(list.query);
  const portals = useAllPortalsQuery();
  const portalName = useMemo(() => new Map((portals.data?.data.list ?? []).map((p) => [p.id, p.name])), [portals.data]);
  const [update] = useUpdateNotificationChannelMutation();
  const [remove] = useDeleteNotificationChannelMutation();
  const [test] = useTestNotificationChannelMutation();
  const [busy, setBusy] = useState<{ id: number; what: 'switch' | 'test' }>();
  const [dialog, setDialog] = useState<{ channel?: NotificationChannel }>();
  const [created, setCreated] = useState<NotificationChannel>();
  const navigate = useNavigate();
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });

  const toggle = async (c: NotificationChannel, enabled: boolean) => {
    setBusy({ id: c.id, what: 'switch' });
    const result = await update({ id: c.id, body: { enabled } });
    setBusy(undefined);
    if (result.data) notify.success(enabled ? CHANNEL_TOAST.enabled : CHANNEL_TOAST.disabled);
  };
  const sendTest = async (c: NotificationChannel) => {
    setBusy({ id: c.id, what: 'test' });
    const result = await test(c.id);
    setBusy(undefined);
    const delivery = result.data?.data;
    if (!delivery) return; // the error toast is the session's
    if (delivery.status === 'sent') notify.success(NOTIFY_MSG.testSent);
    else if (delivery.status === 'failed') notify.error(delivery.lastError ?? 'The test message could not be sent.');
    else notify.warning('The test message is queued; the delivery log shows its result.');
  };
  const del = async (c: NotificationChannel) => {
    const result = await remove(c.id);
    if (result.data) notify.success(CHANNEL_TOAST.deleted);
  };

  const portalsText = (ids: number[]) => (ids.length ? ids.map((id) => portalName.get(id) ?? `#${id}`).join(', ') : 'Every portal');

  const columns: TableColumnsType<NotificationChannel> = [
    {
      title: 'Name',
      ...sortable('name'),
      width: 170,
      fixed: 'left',
      render: (name: string) => (
        <Tooltip title={name}>
          <span style={{ ...ellipsis, maxWidth: 150 }}>{name}</span>
        </Tooltip>
      ),
    },
    {
      title: 'Enabled',
      ...sortable('enabled'),
      width: 110,
      render: (enabled: boolean, c) =>
        writer ? (
          <Switch
            checked={enabled}
            loading={busy?.id === c.id && busy.what === 'switch'}
            onChange={(on) => void toggle(c, on)}
            aria-label={`Enable ${c.name}`}
          />
        ) : (
          <StatusDot status={enabled ? 'online' : 'unknown'} label={enabled ? 'Enabled' : 'Disabled'} />
        ),
    },
    { title: 'Type', ...sortable('type'), width: 130, render: (t: NotificationChannel['type']) => CHANNEL_TYPE_LABEL[t] },
    {
      title: 'Target',
      key: 'target',
      dataIndex: 'target',
      width: 220,
      render: (t: NotificationChannel['target']) => (
        <Tooltip title={targetText(t)}>
          <span style={{ ...ellipsis, maxWidth: 200 }}>{targetText(t)}</span>
        </Tooltip>
      ),
    },
    {
      title: 'Events',
      key: 'events',
      dataIndex: 'events',
      width: 150,
      render: (events: NotificationEvent[]) => (
        <Flex gap={4} wrap="wrap">
          {events.map((e) => (
            <Tag key={e} style={{ marginInlineEnd: 0 }}>
              {EVENT_LABEL[e]}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: 'Portals',
      key: 'customerIds',
      dataIndex: 'customerIds',
      width: 140,
      render: (ids: number[]) => (
        <Tooltip title={ids.length > 1 ? portalsText(ids) : undefined}>
          <span style={{ ...ellipsis, maxWidth: 120 }}>{ids.length > 1 ? `${ids.length} portals` : portalsText(ids)}</span>
        </Tooltip>
      ),
    },
    { title: 'Delay', ...sortable('delayMinutes'), width: 95, render: (m: number) => minutesText(m, 'None') },
    { title: 'Repeat', ...sortable('repeatMinutes'), width: 95, render: (m: number) => minutesText(m, 'Never') },
    {
      title: 'Action',
      key: 'action',
      width: writer ? 170 : 80,
      fixed: 'right',
      render: (_, c) => (
        <Space size={0}>
          {writer && (
            <Tooltip title="Edit">
              <Button type="text" icon={<EditOutlined />} aria-label={`Edit ${c.name}`} onClick={() => setDialog({ channel: c })} />
            </Tooltip>
          )}
          {writer && (
            <Tooltip title="Send a test message">
              <Button
                type="text"
                icon={<SendOutlined />}
                aria-label={`Test ${c.name}`}
                loading={busy?.id === c.id && busy.what === 'test'}
                onClick={() => void sendTest(c)}
              />
            </Tooltip>
          )}
          <Tooltip title="Delivery log">
            <Button
              type="text"
              icon={<HistoryOutlined />}
              aria-label={`Deliveries of ${c.name}`}
              onClick={() => navigate(deliveryLogOf(c.id))}
            />
          </Tooltip>
          {writer && (
            <Popconfirm title={DELETE_CONFIRM} okText="Yes" cancelText="No" onConfirm={() => del(c)}>
              <Button danger type="text" icon={<DeleteOutlined />} aria-label={`Delete ${c.name}`} />
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <Flex gap={12} wrap="wrap" align="center" style={{ marginBottom: 16 }}>
        <Input.Search
          placeholder="Search channels"
          allowClear
          aria-label="Search channels"
          defaultValue={typeof list.filter.q === 'string' ? list.filter.q : ''}
          onSearch={(q) => list.setFilter({ ...list.filter, q: q.trim() || undefined })}
          style={{ maxWidth: 280 }}
        />
        <Select
          allowClear
          placeholder="Any type"
          aria-label="Channel type"
          style={{ minWidth: 170 }}
          value={typeof list.filter.type === 'string' ? list.filter.type : undefined}
          onChange={(v?: string) => list.setFilter({ ...list.filter, type: v })}
          options={NOTIFICATION_CHANNEL_TYPES.map((t) => ({ value: t, label: CHANNEL_TYPE_LABEL[t] }))}
        />
        <Flex gap={8} style={{ marginInlineStart: 'auto' }}>
          <Button icon={<HistoryOutlined />} onClick={() => navigate(DELIVERY_LOG_PATH)}>
            Delivery log
          </Button>
          {writer && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})}>
              Add Channel
            </Button>
          )}
        </Flex>
      </Flex>
      {!writer && (
        <SecondaryText style={{ display: 'block', marginBottom: 12 }}>
          Admins and Project Managers manage the notification channels; you can see them and their delivery log.
        </SecondaryText>
      )}
      <TableState isLoading={isLoading} error={error} onRetry={refetch}>
        <Table<NotificationChannel>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data?.data.list ?? []}
          loading={isFetching && !isLoading}
          pagination={tablePagination(list, data?.data.count)}
          onChange={list.onTableChange}
          scroll={{ x: writer ? 1170 : 1080 }}
          locale={{
            emptyText: (
              <EmptyState
                text={
                  writer
                    ? 'No notification channels. Add Channel to announce alerts by email, webhook, Slack or Teams.'
                    : 'No notification channels yet. Admins and Project Managers can add them.'
                }
              />
            ),
          }}
        />
      </TableState>
      {writer && (
        <ChannelDialog
          open={dialog !== undefined}
          channel={dialog?.channel}
          onClose={() => setDialog(undefined)}
          onCreated={(c) => c.type === 'webhook' && c.secret && setCreated(c)}
        />
      )}
      <Modal
        title="Webhook channel added"
        open={created !== undefined}
        onCancel={() => setCreated(undefined)}
        footer={
          <Button type="primary" onClick={() => setCreated(undefined)}>
            Done
          </Button>
        }
      >
        <p>
          Each delivery to <b>{created?.name}</b> is signed with this secret (Standard Webhooks headers <code>webhook-id</code>,{' '}
          <code>webhook-timestamp</code>, <code>webhook-signature</code>). Give it to the receiver; Edit shows it again.
        </p>
        {created?.secret && <SecretField secret={created.secret} />}
      </Modal>
    </>
  );
}

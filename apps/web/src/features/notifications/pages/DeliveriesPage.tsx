import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Select, Table, Tooltip, type TableColumnsType } from 'antd';
import { Link, useNavigate } from 'react-router';
import { DELIVERY_STATUSES, LIMITS, type DeliveryEvent, type DeliveryStatus, type NotificationDelivery } from '@vigil/contracts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { StatusDot } from '../../../components/StatusDot.tsx';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import { notificationsApi, useNotificationChannelsQuery, useNotificationDeliveriesQuery } from '../api.ts';
import { DELIVERY_STATUS_DOT, DELIVERY_STATUS_LABEL, EVENT_LABEL } from '../labels.ts';

/** Where the Notifications tab of Settings opens (SettingsPage reads the hash). */
export const NOTIFICATIONS_TAB_PATH = '/dashboards/settings#notifications';

const PENDING_REFRESH_MS = 15_000;
const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'block' } as const;

/**
 * Delivery log (docs/web-pages.md "Notifications"): every announcement of an alert (or test) to a channel,
 * newest first, with its status, attempts and last error; filters by channel and status, list state in the
 * address bar. Every tenant role reads it.
 */
export default function DeliveriesPage() {
  const list = useListState({ sort: ['createdAt', 'DESC'] });
  // While a shown delivery is still pending (retries run for an hour), refresh the page of the log now and then.
  const cached = notificationsApi.endpoints.notificationDeliveries.useQueryState(list.query);
  const pending = Boolean(cached.data?.data.list.some((d) => d.status === 'pending'));
  const { data, isLoading, isFetching, error, refetch } = useNotificationDeliveriesQuery(list.query, {
    pollingInterval: pending ? PENDING_REFRESH_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const channels = useNotificationChannelsQuery({ range: [0, LIMITS.pageSizeMax], sort: ['name', 'ASC'] });
  const navigate = useNavigate();
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });

  const columns: TableColumnsType<NotificationDelivery> = [
    { title: 'Channel', ...sortable('channelName'), render: (name: string) => <span style={{ wordBreak: 'break-word' }}>{name}</span> },
    { title: 'Event', ...sortable('event'), width: 150, render: (e: DeliveryEvent) => EVENT_LABEL[e] },
    {
      title: 'Status',
      ...sortable('status'),
      width: 110,
      render: (s: DeliveryStatus) => <StatusDot status={DELIVERY_STATUS_DOT[s]} label={DELIVERY_STATUS_LABEL[s]} />,
    },
    { title: 'Attempts', ...sortable('attempts'), width: 100, align: 'right' },
    {
      title: 'Last Error',
      key: 'lastError',
      dataIndex: 'lastError',
      width: 240,
      render: (text: string | null) =>
        text ? (
          <Tooltip title={text}>
            <span style={{ ...ellipsis, maxWidth: 220 }}>{text}</span>
          </Tooltip>
        ) : (
          '-'
        ),
    },
    { title: 'Created At', ...sortable('createdAt'), width: 150, render: (v: string) => formatDateTime(v) },
    { title: 'Sent At', ...sortable('sentAt'), width: 150, render: (v: string | null) => formatDateTime(v) },
    {
      title: 'Alert',
      key: 'alertId',
      dataIndex: 'alertId',
      width: 90,
      render: (id: number | null) => (id === null ? '-' : <Link to={`/dashboards/alerts/${id}`}>#{id}</Link>),
    },
  ];

  const channelId = typeof list.filter.channelId === 'number' ? list.filter.channelId : undefined;
  const status = typeof list.filter.status === 'string' ? list.filter.status : undefined;
  return (
    <>
      <PageHeader
        title="Delivery Log"
        extra={
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(NOTIFICATIONS_TAB_PATH)}>
            Notification channels
          </Button>
        }
      />
      <Card>
        <Flex gap={12} wrap="wrap" style={{ marginBottom: 16 }}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Any channel"
            aria-label="Channel"
            style={{ minWidth: 220 }}
            loading={channels.isLoading}
            value={channelId}
            onChange={(v?: number) => list.setFilter({ ...list.filter, channelId: v })}
            options={(channels.data?.data.list ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
          <Select
            allowClear
            placeholder="Any status"
            aria-label="Delivery status"
            style={{ minWidth: 160 }}
            value={status}
            onChange={(v?: string) => list.setFilter({ ...list.filter, status: v })}
            options={DELIVERY_STATUSES.map((s) => ({ value: s, label: DELIVERY_STATUS_LABEL[s] }))}
          />
        </Flex>
        <TableState isLoading={isLoading} error={error} onRetry={refetch}>
          <Table<NotificationDelivery>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={data?.data.list ?? []}
            loading={isFetching && !isLoading}
            pagination={tablePagination(list, data?.data.count)}
            onChange={list.onTableChange}
            scroll={{ x: 1080 }}
            locale={{
              emptyText: (
                <EmptyState
                  text={
                    channelId !== undefined || status !== undefined
                      ? 'No deliveries match these filters. Clear them to see every delivery.'
                      : 'No deliveries yet. They appear when an alert is announced or a channel is tested.'
                  }
                />
              ),
            }}
          />
        </TableState>
      </Card>
    </>
  );
}

import { DeleteOutlined, EditOutlined, ScheduleOutlined } from '@ant-design/icons';
import { Button, Card, Popconfirm, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { MaintenanceWindow } from '@vigil/contracts';
import { SecondaryText } from '../../../components/Text.tsx';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { notify } from '../../../lib/notify.ts';
import { useCan } from '../../../lib/session/permissions.ts';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import { useDeleteMaintenanceWindowMutation, useMaintenanceWindowsQuery, usePortalDeviceOptionsQuery } from '../api.ts';
import { CARD_TEXT, deviceNames, devicesText, occurrenceText, RECURRENCE_LABEL, stateOf } from '../labels.ts';
import { useBoundaryRefresh } from '../useBoundaryRefresh.ts';
import { useTenantZone } from '../useTenantZone.ts';
import { formatInZone } from '../zone.ts';

const MaintenanceDialog = lazy(() => import('./MaintenanceDialog.tsx'));

const nowrap = { whiteSpace: 'nowrap' } as const;

/**
 * The "Maintenance" card (docs/web-pages.md "Maintenance windows"): the current windows (in force,
 * upcoming or recurring) of a portal, or those covering one device, with their state; Schedule
 * Maintenance, Edit and Delete for the roles that may (`maintenance:write`), reading for every other.
 * Times are in the tenant's zone, named under the title.
 */
export function MaintenanceCard({ customerId, deviceId }: { customerId: number; deviceId?: number }) {
  const writer = useCan('maintenance:write');
  const zone = useTenantZone();
  const list = useListState({ prefix: 'mw.', pageSize: 5, sort: ['startsAt', 'ASC'] });
  const filter = deviceId ? { deviceId, current: true } : { customerId, current: true };
  const windows = useMaintenanceWindowsQuery({ ...list.query, filter: { ...list.filter, ...filter } });
  const rows = useMemo(() => windows.data?.data.list ?? [], [windows.data]);
  useBoundaryRefresh(rows);
  // Device names only for windows that list devices (the tooltip behind "N devices").
  const listsDevices = rows.some((w) => w.deviceIds.length > 0);
  const options = usePortalDeviceOptionsQuery({ customerId }, { skip: !listsDevices });
  const names = useMemo(() => new Map((options.data?.data.list ?? []).map((d) => [d.id, d.name])), [options.data]);
  const [remove] = useDeleteMaintenanceWindowMutation();
  const [dialog, setDialog] = useState<{ window?: MaintenanceWindow }>();
  // The dialog's chunk loads on the first Schedule or Edit and then stays mounted (it animates its closing).
  const [dialogLoaded, setDialogLoaded] = useState(false);
  const openDialog = (d: { window?: MaintenanceWindow }) => {
    setDialogLoaded(true);
    setDialog(d);
  };
  const tz = zone.zone;
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });

  const del = async (w: MaintenanceWindow) => {
    const result = await remove(w.id);
    if (result.data) notify.success(CARD_TEXT.deleted);
  };

  const columns: TableColumnsType<MaintenanceWindow> = [
    {
      title: 'Devices',
      key: 'deviceIds',
      dataIndex: 'deviceIds',
      width: 110,
      render: (ids: number[]) =>
        ids.length === 0 ? (
          <span style={nowrap}>{devicesText(ids)}</span>
        ) : (
          <Tooltip title={deviceNames(ids, names).join(', ')}>
            {/* Focusable, so the names also show from the keyboard. */}
            <span tabIndex={0} style={{ ...nowrap, textDecoration: 'underline dotted', cursor: 'help' }}>
              {devicesText(ids)}
            </span>
          </Tooltip>
        ),
    },
    { title: 'Starts', ...sortable('startsAt'), width: 150, render: (v: string) => <span style={nowrap}>{formatInZone(v, tz)}</span> },
    { title: 'Ends', ...sortable('endsAt'), width: 150, render: (v: string) => <span style={nowrap}>{formatInZone(v, tz)}</span> },
    {
      title: 'Repeats',
      key: 'recurrence',
      dataIndex: 'recurrence',
      width: 90,
      render: (r: MaintenanceWindow['recurrence']) => RECURRENCE_LABEL[r],
    },
    {
      title: 'State',
      key: 'inForce',
      width: 175,
      render: (_v, w) => {
        const more = occurrenceText(w, tz);
        return (
          <Space orientation="vertical" size={0}>
            <Tag color={w.inForce ? 'processing' : 'default'} style={{ marginInlineEnd: 0 }}>
              {stateOf(w)}
            </Tag>
            {more && <SecondaryText style={{ fontSize: 12, ...nowrap }}>{more}</SecondaryText>}
          </Space>
        );
      },
    },
    {
      // One line per window: a long reason shows whole on hover.
      title: 'Reason',
      key: 'reason',
      dataIndex: 'reason',
      ellipsis: { showTitle: false },
      render: (r: string) =>
        r ? (
          <Tooltip title={r} placement="topLeft">
            <span>{r}</span>
          </Tooltip>
        ) : (
          <SecondaryText>-</SecondaryText>
        ),
    },
    { title: 'Created by', key: 'createdByName', dataIndex: 'createdByName', width: 125, ellipsis: true, render: (n: string) => n || '-' },
    ...(writer
      ? [
          {
            title: 'Action',
            key: 'action',
            width: 100,
            fixed: 'right' as const,
            render: (_v: unknown, w: MaintenanceWindow) => (
              <Space size={0}>
                <Tooltip title="Edit">
                  <Button
                    type="text"
                    icon={<EditOutlined />}
                    aria-label={`Edit maintenance window ${w.id}`}
                    onClick={() => openDialog({ window: w })}
                  />
                </Tooltip>
                <Popconfirm title={CARD_TEXT.deleteConfirm} okText="Yes" cancelText="No" onConfirm={() => del(w)}>
                  <Button danger type="text" icon={<DeleteOutlined />} aria-label={`Delete maintenance window ${w.id}`} />
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  const empty = deviceId
    ? 'No maintenance window covers this device.'
    : 'No maintenance scheduled. Devices in a window raise no alert and their time is left out of reliability.';

  return (
    <Card
      title="Maintenance"
      data-testid="maintenance-card"
      extra={
        writer && (
          <Button icon={<ScheduleOutlined />} onClick={() => openDialog({})} disabled={!zone.ready}>
            Schedule Maintenance
          </Button>
        )
      }
    >
      <SecondaryText style={{ display: 'block', marginBottom: 12 }}>
        Times in {tz}
        {zone.isTenant ? ', the tenant’s time zone.' : ', this browser’s time zone.'}
      </SecondaryText>
      <TableState isLoading={windows.isLoading} error={windows.error} onRetry={windows.refetch}>
        <Table<MaintenanceWindow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={windows.isFetching && !windows.isLoading}
          pagination={tablePagination(list, windows.data?.data.count, { quickJumper: false, sizeChanger: false, hideOnSinglePage: true })}
          onChange={list.onTableChange}
          // A floor that leaves the reason about 200 px: the table fits its card at 1440 px and scrolls inside it at 769.
          scroll={{ x: writer ? 1070 : 970 }}
          locale={{
            emptyText: (
              <EmptyState
                text={writer || deviceId ? empty : 'No maintenance scheduled. Admins and Project Managers schedule maintenance windows.'}
              />
            ),
          }}
        />
      </TableState>
      {writer && dialogLoaded && (
        <Suspense fallback={null}>
          <MaintenanceDialog
            open={dialog !== undefined}
            customerId={customerId}
            window={dialog?.window}
            deviceId={deviceId}
            zone={zone}
            onClose={() => setDialog(undefined)}
          />
        </Suspense>
      )}
    </Card>
  );
}

import { DeleteOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Table, type TableColumnsType } from 'antd';
import type { License } from '@vigil/contracts';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import { useDeleteLicenseMutation, useLicensesQuery } from '../api.ts';
import { deviceTypeLabel } from '../../../components/deviceColumns.tsx';
import { notify } from '../../../lib/notify.ts';
import { useCan } from '../../../lib/session/permissions.ts';

export const formatTerms = (years: number) => `${years}Y`;

/** Licenses of a portal (docs/web-pages.md "Pages"): 3 per page with a size changer; delete after 'Are you sure to delete this license?'. */
export function LicensesTable({ customerId }: { customerId: number }) {
  const list = useListState({ prefix: 'lic.', pageSize: 3 });
  const { data, isLoading, isFetching, error, refetch } = useLicensesQuery({ ...list.query, filter: { ...list.filter, customerId } });
  const [remove] = useDeleteLicenseMutation();
  const canDelete = useCan('licenses:write');
  const del = async (l: License) => {
    const result = await remove(l.id);
    if ('data' in result) notify.success('License deleted.');
  };
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });
  const columns: TableColumnsType<License> = [
    { title: 'Device Type', ...sortable('deviceType'), render: (t: number) => deviceTypeLabel(t) },
    { title: 'Count', ...sortable('deviceCount') },
    { title: 'Terms', ...sortable('terms'), render: (t: number) => formatTerms(t) },
    { title: 'Start Date', ...sortable('startDate'), render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(v)}</span> },
    { title: 'End Date', ...sortable('endDate'), render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(v)}</span> },
    { title: 'Days Remaining', ...sortable('daysRemaining') },
    ...(canDelete
      ? [
          {
            title: 'Action',
            key: 'action',
            width: 80,
            fixed: 'right' as const,
            render: (_: unknown, l: License) => (
              <Popconfirm title="Are you sure to delete this license?" okText="Yes" cancelText="No" onConfirm={() => del(l)}>
                <Button danger type="text" icon={<DeleteOutlined />} aria-label={`Delete license ${l.id}`} />
              </Popconfirm>
            ),
          },
        ]
      : []),
  ];
  return (
    <TableState isLoading={isLoading} error={error} onRetry={refetch}>
      <Table<License>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.data.list ?? []}
        loading={isFetching && !isLoading}
        pagination={tablePagination(list, data?.data.count, { quickJumper: false, sizeChanger: true })}
        onChange={list.onTableChange}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <EmptyState text="No licenses yet. Add License to track renewals." /> }}
      />
    </TableState>
  );
}

import { Card, Table, type TableColumnsType } from 'antd';
import { useDeferredValue } from 'react';
import { Link } from 'react-router';
import type { LiveEvent } from '@vigil/contracts';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import { portalLink } from '../../../lib/links.ts';
import { useLiveEventsQuery } from '../../live/index.ts';

/** Live Events (docs/web-pages.md "Pages"): Customer, Device Count (offline), Offline Since (M/D/YY h:mm A); kept live by the stream. */
export function LiveEventsTable() {
  const list = useListState({ prefix: 'live.', pageSize: 5, sort: ['offlineSince', 'DESC'] });
  // The table mounts when its rows arrive, usually in the same frame as the other Pulse tables': deferred,
  // that render is a background one React splits into short slices instead of one long task.
  const { data, isLoading, isFetching, error, refetch } = useDeferredValue(useLiveEventsQuery(list.query));
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });
  const columns: TableColumnsType<LiveEvent> = [
    {
      title: 'Customer',
      ...sortable('customerName'),
      render: (name: string, row) => {
        const link = portalLink(row);
        return (
          <Link to={link.to} state={link.state}>
            {name}
          </Link>
        );
      },
    },
    { title: 'Device Count', ...sortable('offlineCount') },
    {
      title: 'Offline Since',
      ...sortable('offlineSince'),
      render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span>,
    },
  ];
  return (
    <Card title="Live Events" style={{ height: '100%' }}>
      <TableState isLoading={isLoading} error={error} onRetry={refetch}>
        <Table<LiveEvent>
          rowKey="customerId"
          size="small"
          columns={columns}
          dataSource={data?.data.list ?? []}
          loading={isFetching && !isLoading}
          pagination={tablePagination(list, data?.data.count, { quickJumper: false, sizeChanger: false, hideOnSinglePage: true })}
          onChange={list.onTableChange}
          scroll={{ x: 360 }}
          locale={{ emptyText: <EmptyState text="All devices are online. Offline devices show up here as they happen." /> }}
        />
      </TableState>
    </Card>
  );
}

import { Table, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { caseStatusLabel, type Case } from '@vigil/contracts';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { tablePagination } from '../../../lib/tablePagination.ts';
import type { useListState } from '../../../lib/useListState.ts';
import { caseLink } from '../../../lib/links.ts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

interface Props {
  list: ReturnType<typeof useListState>;
  result: {
    data?: { data: { list: Case[]; count: number } };
    isLoading: boolean;
    isFetching: boolean;
    error?: FetchBaseQueryError | SerializedError;
    refetch: () => void;
  };
  superAdmin: boolean;
  emptyText: string;
  pager?: { quickJumper?: boolean; sizeChanger?: boolean; hideOnSinglePage?: boolean };
  size?: 'small' | 'middle';
}

/**
 * Cases table (docs/web-pages.md "Pages"): Tenant Name (superAdmin), Case Id (link carrying customerName
 * and customerId), Customer Name, Offline Devices, Status, Date Created.
 */
export function CasesTable({ list, result, superAdmin, emptyText, pager, size = 'middle' }: Props) {
  const { data, isLoading, isFetching, error, refetch } = result;
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });
  const columns: TableColumnsType<Case> = [
    ...(superAdmin ? [{ title: 'Tenant Name', key: 'tenantName', dataIndex: 'tenantName' }] : []),
    {
      title: 'Case Id',
      ...sortable('id'),
      render: (id: number, c) => {
        const link = caseLink(c);
        return (
          <Link to={link.to} state={link.state}>
            #{id}
          </Link>
        );
      },
    },
    { title: 'Customer Name', ...sortable('customerName') },
    { title: 'Offline Devices', ...sortable('offlineCount') },
    { title: 'Status', ...sortable('caseType'), render: (t: number) => caseStatusLabel(t) },
    {
      title: 'Date Created',
      ...sortable('createdAt'),
      render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(v)}</span>,
    },
  ];
  return (
    <TableState isLoading={isLoading} error={error} onRetry={refetch}>
      <Table<Case>
        rowKey="id"
        size={size}
        columns={columns}
        dataSource={data?.data.list ?? []}
        loading={isFetching && !isLoading}
        pagination={tablePagination(list, data?.data.count, { quickJumper: false, sizeChanger: false, ...pager })}
        onChange={list.onTableChange}
        // A floor, not the content's width: the customer name wraps so the table fits a half-width card
        // at 1440 px; below the floor it scrolls inside its card.
        scroll={{ x: superAdmin ? 640 : 540 }}
        locale={{ emptyText: <EmptyState text={emptyText} /> }}
      />
    </TableState>
  );
}

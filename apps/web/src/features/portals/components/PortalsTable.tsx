import { Table, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import type { Portal } from '@vigil/contracts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { tablePagination } from '../../../lib/tablePagination.ts';
import type { useListState } from '../../../lib/useListState.ts';
import { portalLink } from '../../../lib/links.ts';
import type { ReactNode } from 'react';

/** Reliability Score column: one decimal and a percent sign; '-' when nothing was observed (-1). */
export const formatReliability = (score: number) => (score < 0 ? '-' : `${score.toFixed(1)}%`);

interface Props {
  list: ReturnType<typeof useListState>;
  result: {
    data?: { data: { list: Portal[]; count: number } };
    isLoading: boolean;
    isFetching: boolean;
    error?: FetchBaseQueryError | SerializedError;
    refetch: () => void;
  };
  superAdmin: boolean;
  emptyText: string;
  emptyAction?: ReactNode;
}

/**
 * Portals table (docs/web-pages.md "Pages"): Tenant Name (superAdmin), Customer (link with customerName in
 * state), Cameras, Intercom, Access Control, Alarm, Environmental, Reliability Score; all
 * sortable; quick jumper and size changer.
 */
export function PortalsTable({ list, result, superAdmin, emptyText, emptyAction }: Props) {
  const { data, isLoading, isFetching, error, refetch } = result;
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });
  const count = (title: string, key: string) => ({ title, ...sortable(key), align: 'right' as const });
  const columns: TableColumnsType<Portal> = [
    ...(superAdmin ? [{ title: 'Tenant Name', ...sortable('tenantName') }] : []),
    {
      title: 'Customer',
      ...sortable('name'),
      render: (name: string, p) => {
        const link = portalLink(p);
        return (
          <Link to={link.to} state={link.state}>
            {name}
          </Link>
        );
      },
    },
    count('Cameras', 'cameraCount'),
    count('Intercom', 'intercomCount'),
    count('Access Control', 'accessCount'),
    count('Alarm', 'alarmCount'),
    count('Environmental', 'environmentalCount'),
    { title: 'Reliability Score', ...sortable('reliabilityScore'), align: 'right', render: (v: number) => formatReliability(v) },
  ];
  return (
    <TableState isLoading={isLoading} error={error} onRetry={refetch}>
      <Table<Portal>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.data.list ?? []}
        loading={isFetching && !isLoading}
        pagination={tablePagination(list, data?.data.count, { quickJumper: true, sizeChanger: true })}
        onChange={list.onTableChange}
        scroll={{ x: 860 }}
        locale={{ emptyText: <EmptyState text={emptyText} action={emptyAction} /> }}
      />
    </TableState>
  );
}

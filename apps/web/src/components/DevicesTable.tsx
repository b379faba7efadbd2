import { Table, type TableColumnsType } from 'antd';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { EmptyState, TableState } from './TableStates.tsx';
import { tablePagination } from '../lib/tablePagination.ts';
import type { useListState } from '../lib/useListState.ts';
import { deviceColumns, type DeviceRow } from './deviceColumns.tsx';
import { tableChangeWithFilters } from '../lib/tableChange.ts';

interface Props<T extends DeviceRow> {
  list: ReturnType<typeof useListState>;
  result: {
    data?: { data: { list: T[]; count: number } };
    isLoading: boolean;
    isFetching: boolean;
    error?: FetchBaseQueryError | SerializedError;
    refetch: () => void;
  };
  extraColumns?: TableColumnsType<T>;
  emptyText: string;
}

/** A devices table (portal, case, alert) bound to URL list state, with its loading, empty and error states. */
export function DevicesTable<T extends DeviceRow>({ list, result, extraColumns = [], emptyText }: Props<T>) {
  const { data, isLoading, isFetching, error, refetch } = result;
  return (
    <TableState isLoading={isLoading} error={error} onRetry={refetch}>
      <Table<T>
        rowKey="id"
        size="middle"
        columns={[...deviceColumns<T>(list.sortOrderOf, list.filter.status), ...extraColumns]}
        dataSource={data?.data.list ?? []}
        loading={isFetching && !isLoading}
        pagination={tablePagination(list, data?.data.count, { quickJumper: false, sizeChanger: false, hideOnSinglePage: true })}
        onChange={tableChangeWithFilters(list, ['status'])}
        scroll={{ x: 560 }}
        locale={{ emptyText: <EmptyState text={emptyText} /> }}
      />
    </TableState>
  );
}

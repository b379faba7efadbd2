import type { TablePaginationConfig } from 'antd';
import type { FilterValue, SorterResult } from 'antd/es/table/interface';
import type { SortDir } from '@vigil/contracts';

/** The column filters antd Table's `onChange` passes. */
export type TableFilters = Record<string, FilterValue | null>;
/** The sorter antd Table's `onChange` passes for rows of type `Row`: one column, or several. */
export type TableSorter<Row> = SorterResult<Row> | SorterResult<Row>[];

/**
 * An antd Table `onChange` handler, generic over the row type so one handler fits
 * `TableProps<Row>['onChange']` of any table.
 */
export type TableChangeHandler = <Row>(pagination: TablePaginationConfig, filters: TableFilters, sorter: TableSorter<Row>) => void;

/** The list sort a Table sorter asks for (its first sorted column), or undefined when none is sorted. */
export function sortOfSorter<Row>(sorter: TableSorter<Row>): [string, SortDir] | undefined {
  const one = Array.isArray(sorter) ? sorter[0] : sorter;
  if (!one?.order) return undefined;
  return [String(one.columnKey ?? one.field), one.order === 'ascend' ? 'ASC' : 'DESC'];
}

/** antd Table pagination bound to URL list state (page, pageSize) and the list's total count. */
export function tablePagination(
  state: { page: number; pageSize: number },
  total: number | undefined,
  options: { quickJumper?: boolean; sizeChanger?: boolean; hideOnSinglePage?: boolean } = {},
): TablePaginationConfig {
  return {
    current: state.page,
    pageSize: state.pageSize,
    total: total ?? 0,
    showQuickJumper: options.quickJumper ?? true,
    showSizeChanger: options.sizeChanger ?? true,
    hideOnSinglePage: options.hideOnSinglePage ?? false,
    showTotal: (n) => `${n} total`,
  };
}

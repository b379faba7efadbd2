import type { TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { ListState } from '../../../lib/listState.ts';

/**
 * antd Table onChange that also carries column filters into the URL list state, in ONE
 * update (two consecutive search-param writes would lose the first). `filterKeys` maps a
 * column key to the filter field it sets (single-choice filters).
 */
export function tableChangeWithFilters(
  list: { pageSize: number; filter: Record<string, unknown>; update: (patch: Partial<ListState>) => void },
  filterKeys: readonly string[],
) {
  return (pagination: TablePaginationConfig, filters: Record<string, unknown[] | null>, sorter: SorterResult<unknown> | SorterResult<unknown>[]) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = one?.order ? String(one.columnKey ?? one.field) : undefined;
    const filter = { ...list.filter };
    for (const key of filterKeys) {
      const chosen = filters[key]?.[0];
      if (chosen === undefined) delete filter[key];
      else filter[key] = chosen;
    }
    const filterChanged = JSON.stringify(filter) !== JSON.stringify(list.filter);
    list.update({
      page: filterChanged ? 1 : (pagination.current ?? 1),
      pageSize: pagination.pageSize ?? list.pageSize,
      sort: field ? [field, one!.order === 'ascend' ? 'ASC' : 'DESC'] : undefined,
      filter,
    });
  };
}

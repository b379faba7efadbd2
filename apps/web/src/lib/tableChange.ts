import type { ListState } from './listState.ts';
import { sortOfSorter, type TableChangeHandler } from './tablePagination.ts';

/**
 * antd Table onChange that also carries column filters into the URL list state, in ONE
 * update (two consecutive search-param writes would lose the first). `filterKeys` maps a
 * column key to the filter field it sets (single-choice filters).
 */
export function tableChangeWithFilters(
  list: { pageSize: number; filter: Record<string, unknown>; update: (patch: Partial<ListState>) => void },
  filterKeys: readonly string[],
): TableChangeHandler {
  return (pagination, filters, sorter) => {
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
      sort: sortOfSorter(sorter),
      filter,
    });
  };
}

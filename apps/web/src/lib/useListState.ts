import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { SortDir } from '@vigil/contracts';
import { readListState, toListQuery, writeListState, type ListState } from './listState.ts';
import { sortOfSorter, type TableChangeHandler } from './tablePagination.ts';

/**
 * List state (page, pageSize, sort, filter) kept in the address bar, so it survives
 * reload and back/forward. `onTableChange` plugs into antd Table's `onChange`.
 */
export function useListState(defaults: { pageSize?: number; sort?: [string, SortDir]; prefix?: string } = {}) {
  const [params, setParams] = useSearchParams();
  const prefix = defaults.prefix ?? '';
  const scoped = useMemo(() => {
    if (!prefix) return params;
    const own = new URLSearchParams();
    for (const key of ['page', 'pageSize', 'sort', 'filter']) {
      const v = params.get(prefix + key);
      if (v !== null) own.set(key, v);
    }
    return own;
  }, [params, prefix]);
  const key = scoped.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const state = useMemo(() => readListState(scoped, defaults), [key, defaults.pageSize, defaults.sort?.[0], defaults.sort?.[1]]);

  const lastWrite = useRef<{ from: string; to: string } | null>(null);
  const update = useCallback(
    (patch: Partial<ListState>) =>
      setParams((rendered) => {
        // The router applies navigations as transitions: a quick second change (sort,
        // then search) can arrive before the first one is rendered. Build on what was
        // written last while the rendered params are still the ones it was built from.
        const last = lastWrite.current;
        const base = last && last.from === rendered.toString() ? new URLSearchParams(last.to) : rendered;
        const next = patchParams(base, patch, prefix);
        lastWrite.current = { from: rendered.toString(), to: next.toString() };
        return next;
      }),
    [setParams, prefix],
  );

  const onTableChange = useCallback<TableChangeHandler>(
    (pagination, _filters, sorter) => {
      update({
        page: pagination.current ?? 1,
        pageSize: pagination.pageSize ?? state.pageSize,
        sort: sortOfSorter(sorter),
      });
    },
    [update, state.pageSize],
  );

  return {
    ...state,
    query: toListQuery(state),
    setPage: (page: number) => update({ page }),
    setPageSize: (pageSize: number) => update({ pageSize, page: 1 }),
    setSort: (sort?: [string, SortDir]) => update({ sort }),
    setFilter: (filter: Record<string, unknown>) => update({ filter, page: 1 }),
    update,
    onTableChange,
    /** antd `sortOrder` of a column, from the URL state. */
    sortOrderOf: (field: string) =>
      state.sort?.[0] === field ? (state.sort[1] === 'ASC' ? ('ascend' as const) : ('descend' as const)) : null,
  };
}

const LIST_KEYS = ['page', 'pageSize', 'sort', 'filter'] as const;

/** Applies a list-state change to the query string; `prefix` scopes the keys of one of several lists on a page. */
function patchParams(current: URLSearchParams, patch: Partial<ListState>, prefix: string): URLSearchParams {
  if (!prefix) return writeListState(current, patch);
  const own = new URLSearchParams();
  for (const k of LIST_KEYS) {
    const v = current.get(prefix + k);
    if (v !== null) own.set(k, v);
  }
  const written = writeListState(own, patch);
  const next = new URLSearchParams(current);
  for (const k of LIST_KEYS) {
    const v = written.get(k);
    if (v === null) next.delete(prefix + k);
    else next.set(prefix + k, v);
  }
  return next;
}

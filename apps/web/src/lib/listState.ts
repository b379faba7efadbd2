import { LIMITS, type ListQueryInput, type SortDir } from '@vigil/contracts';

/** List page state as it lives in the address bar (docs/product.md "Screens"). */
export interface ListState {
  page: number;
  pageSize: number;
  sort?: [string, SortDir];
  filter: Record<string, unknown>;
}

const intOr = (text: string | null, fallback: number) => {
  if (text === null || text.trim() === '') return fallback;
  const n = Number(text);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
};

export const parsePage = (text: string | null): number => Math.max(1, intOr(text, 1));

export const parsePageSize = (text: string | null, fallback: number = LIMITS.pageSizeDefault): number =>
  Math.min(LIMITS.pageSizeMax, Math.max(1, intOr(text, fallback)));

/** Only a two-element JSON array [field, 'ASC'|'DESC'] is a sort; anything else is none. */
export function parseSort(text: string | null): [string, SortDir] | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [field, dir] = value as unknown[];
    if (typeof field !== 'string' || !field) return undefined;
    const direction = typeof dir === 'string' ? dir.toUpperCase() : '';
    if (direction !== 'ASC' && direction !== 'DESC') return undefined;
    return [field, direction];
  } catch {
    return undefined;
  }
}

/** Filter is a JSON object; anything else is no filter. */
export function parseFilter(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function readListState(params: URLSearchParams, defaults: { pageSize?: number; sort?: [string, SortDir] } = {}): ListState {
  return {
    page: parsePage(params.get('page')),
    pageSize: parsePageSize(params.get('pageSize'), defaults.pageSize),
    sort: parseSort(params.get('sort')) ?? defaults.sort,
    filter: parseFilter(params.get('filter')),
  };
}

/** Writes list state into the query string, keeping other parameters; empty values are removed. */
export function writeListState(params: URLSearchParams, state: Partial<ListState>): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | undefined) => (value === undefined ? next.delete(key) : next.set(key, value));
  if ('page' in state) set('page', state.page && state.page > 1 ? String(Math.trunc(state.page)) : undefined);
  if ('pageSize' in state) set('pageSize', state.pageSize !== undefined ? String(parsePageSize(String(state.pageSize))) : undefined);
  if ('sort' in state) set('sort', state.sort ? JSON.stringify(state.sort) : undefined);
  if ('filter' in state) {
    const entries = Object.entries(state.filter ?? {}).filter(([, v]) => v !== undefined && v !== '' && v !== null);
    set('filter', entries.length ? JSON.stringify(Object.fromEntries(entries)) : undefined);
  }
  return next;
}

/** The API's list query for a list state: range [offset, count], sort, filter. */
export function toListQuery(state: ListState): ListQueryInput {
  return {
    range: [(state.page - 1) * state.pageSize, state.pageSize],
    sort: state.sort,
    filter: state.filter,
  };
}

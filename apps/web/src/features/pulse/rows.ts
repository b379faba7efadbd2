/**
 * Chart rows from either `{data: [...]}` or `{data: {list: [...]}}`: the statistics
 * contracts have moved between both shapes, and the web client reads either.
 */
export function rowsOf<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  const list = (data as { list?: unknown } | undefined)?.list;
  return Array.isArray(list) ? (list as T[]) : [];
}

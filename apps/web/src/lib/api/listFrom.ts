/** Reads a list from `{data: {list}}` or `{data: [...]}` (the product reads lists via a data field). */
export function listFrom<T>(body: unknown): T[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (Array.isArray(data)) return data as T[];
  const list = (data as { list?: unknown } | undefined)?.list;
  return Array.isArray(list) ? (list as T[]) : [];
}

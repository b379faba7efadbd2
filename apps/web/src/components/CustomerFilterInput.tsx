import { Input } from 'antd';
import type { CSSProperties } from 'react';

/**
 * The "Search customers" box of the list pages: edits the list's `q` filter (kept in
 * the address bar by useListState), blank clears it.
 */
export function CustomerFilterInput({
  list,
  style,
}: {
  list: { filter: Record<string, unknown>; setFilter: (f: Record<string, unknown>) => void };
  style?: CSSProperties;
}) {
  return (
    <Input.Search
      placeholder="Search customers"
      allowClear
      defaultValue={typeof list.filter.q === 'string' ? list.filter.q : ''}
      onSearch={(q) => list.setFilter({ ...list.filter, q: q.trim() || undefined })}
      style={{ maxWidth: 320, ...style }}
      aria-label="Filter by customer"
    />
  );
}

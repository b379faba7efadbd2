import { Card } from 'antd';
import { useDeferredValue } from 'react';
import { useListState } from '../../../lib/useListState.ts';
import { usePortalsQuery, PortalsTable } from '../../portals/index.ts';

/** All Customers (docs/web-pages.md "Pages"): the portals with their counts, 10 per page, size changer, quick jumper. */
export function AllCustomersTable({ superAdmin }: { superAdmin: boolean }) {
  const list = useListState({ prefix: 'customers.', pageSize: 10 });
  // The table mounts when its rows arrive, usually in the same frame as the other Pulse tables': deferred,
  // that render is a background one React splits into short slices instead of one long task.
  const result = useDeferredValue(usePortalsQuery(list.query));
  return (
    <Card title="All Customers">
      <PortalsTable
        list={list}
        result={result}
        superAdmin={superAdmin}
        emptyText="No customers yet. Add a portal to start monitoring its devices."
      />
    </Card>
  );
}

import { Card } from 'antd';
import { useDeferredValue } from 'react';
import { Link } from 'react-router';
import { useListState } from '../../../lib/useListState.ts';
import { useCasesQuery, CasesTable } from '../../cases/index.ts';

/** The cases table on Pulse (page size 3). */
export function PulseCasesCard({ superAdmin }: { superAdmin: boolean }) {
  const list = useListState({ prefix: 'cases.', pageSize: 3, sort: ['createdAt', 'DESC'] });
  // The table mounts when its rows arrive, usually in the same frame as the other Pulse tables': deferred,
  // that render is a background one React splits into short slices instead of one long task.
  const result = useDeferredValue(useCasesQuery(list.query));
  return (
    <Card title="Cases" extra={<Link to="/dashboards/cases">All cases</Link>} style={{ height: '100%' }}>
      <CasesTable
        size="small"
        list={list}
        result={result}
        superAdmin={superAdmin}
        emptyText="No cases yet. Open one from a portal's offline devices."
      />
    </Card>
  );
}

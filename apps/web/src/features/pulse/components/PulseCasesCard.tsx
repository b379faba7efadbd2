import { Card } from 'antd';
import { Link } from 'react-router';
import { useListState } from '../../../lib/useListState.ts';
import { useCasesQuery } from '../../cases/api.ts';
import { CasesTable } from '../../cases/components/CasesTable.tsx';

/** The cases table on Pulse (page size 3). */
export function PulseCasesCard({ superAdmin }: { superAdmin: boolean }) {
  const list = useListState({ prefix: 'cases.', pageSize: 3, sort: ['createdAt', 'DESC'] });
  const result = useCasesQuery(list.query);
  return (
    <Card title="Cases" extra={<Link to="/dashboards/cases">All cases</Link>} style={{ height: '100%' }}>
      <CasesTable size="small" list={list} result={result} superAdmin={superAdmin} emptyText="No cases yet. Open one from a portal's offline devices." />
    </Card>
  );
}

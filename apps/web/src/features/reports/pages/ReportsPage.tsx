import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Table, type TableColumnsType } from 'antd';
import { Link, useNavigate } from 'react-router';
import { REPORT_PERIODS, type Report } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { CustomerFilterInput } from '../../../components/CustomerFilterInput.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { useCan } from '../../../lib/session/permissions.ts';
import { useReportsQuery } from '../api.ts';

export const periodLabel = (code: number) => REPORT_PERIODS[code] ?? 'Unknown';

/** Reports (docs/web-pages.md "Pages"): Tenant Name (superAdmin), Customer Name (searchable, links to the report), Period, Created Date. */
export default function ReportsPage() {
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const navigate = useNavigate();
  const list = useListState({ pageSize: 10, sort: ['createdAt', 'DESC'] });
  const { data, isLoading, isFetching, error, refetch } = useReportsQuery(list.query);
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });
  const columns: TableColumnsType<Report> = [
    ...(superAdmin ? [{ title: 'Tenant Name', ...sortable('tenantName') }] : []),
    {
      title: 'Customer Name',
      ...sortable('customerName'),
      render: (name: string, r) => (
        <Link to={`/dashboards/reports/${r.id}`} state={{ customerName: r.customerName }}>
          {name}
        </Link>
      ),
    },
    { title: 'Period', ...sortable('period'), render: (p: number) => periodLabel(p) },
    { title: 'Created Date', ...sortable('createdAt'), render: (v: string) => formatDate(v) },
  ];
  const canCreate = useCan('reports:write');
  const create = canCreate && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/dashboards/reports/create')}>
      Create Report
    </Button>
  );
  return (
    <>
      <PageHeader title="Reports" extra={create} />
      <Card>
        <CustomerFilterInput list={list} style={{ marginBottom: 16 }} />
        <TableState isLoading={isLoading} error={error} onRetry={refetch}>
          <Table<Report>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={data?.data.list ?? []}
            loading={isFetching && !isLoading}
            pagination={tablePagination(list, data?.data.count)}
            onChange={list.onTableChange}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: (
                <EmptyState
                  text={canCreate ? "No reports yet. Create Report to summarise a customer's period." : 'No reports yet.'}
                  action={create}
                />
              ),
            }}
          />
        </TableState>
      </Card>
    </>
  );
}

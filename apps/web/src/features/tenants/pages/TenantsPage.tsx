import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Popconfirm, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Tenant } from '@vigil/contracts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import { useDeleteTenantMutation, useTenantsQuery } from '../api.ts';
import { AddTenantDialog } from '../components/AddTenantDialog.tsx';

/** Tenants (superAdmin, docs/web.md "Pages of web I"): table, Add Tenant, delete with confirm. */
export default function TenantsPage() {
  const list = useListState();
  const { data, isLoading, isFetching, error, refetch } = useTenantsQuery(list.query);
  const [remove] = useDeleteTenantMutation();
  const [adding, setAdding] = useState(false);

  const columns: TableColumnsType<Tenant> = [
    {
      title: 'Tenant Name',
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      sortOrder: list.sortOrderOf('name'),
      render: (name: string, t) => (
        <Link to={`/dashboards/tenants/${t.id}`} state={{ tenantName: name }}>
          {name}
        </Link>
      ),
    },
    { title: 'Contact Person', dataIndex: 'contactName', key: 'contactName', sorter: true, sortOrder: list.sortOrderOf('contactName') },
    { title: 'Phone', dataIndex: 'phone', key: 'phone', sorter: true, sortOrder: list.sortOrderOf('phone') },
    { title: 'Email', dataIndex: 'email', key: 'email', sorter: true, sortOrder: list.sortOrderOf('email') },
    {
      title: 'Action',
      key: 'action',
      width: 90,
      render: (_, t) => (
        <Popconfirm title="Are you sure you want to delete this tenant?" okText="Yes" cancelText="No" onConfirm={() => remove(t.id)}>
          <Button danger type="text" icon={<DeleteOutlined />} aria-label={`Delete ${t.name}`} />
        </Popconfirm>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Tenants"
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            Add Tenant
          </Button>
        }
      />
      <Card>
        <TableState isLoading={isLoading} error={error} onRetry={refetch}>
          <Table<Tenant>
            rowKey="id"
            columns={columns}
            dataSource={data?.data.list ?? []}
            loading={isFetching}
            pagination={tablePagination(list, data?.data.count)}
            onChange={list.onTableChange}
            scroll={{ x: 720 }}
            locale={{ emptyText: <EmptyState text="No tenants yet. Add Tenant to create the first one." /> }}
          />
        </TableState>
      </Card>
      <AddTenantDialog open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Popconfirm, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { User } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { useCan } from '../../../lib/session/permissions.ts';
import { notify } from '../../../lib/notify.ts';
import { useDeleteUserMutation, useUsersQuery } from '../api.ts';
import { AddUserDialog } from '../components/AddUserDialog.tsx';

export const rolesText = (roles: readonly string[]) => (roles.length ? roles.join(', ') : '-');

/** Users (docs/web.md "Pages of web I"): Tenant Name for the superAdmin; Add User for superAdmin and Admin. */
export default function UsersPage() {
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const list = useListState();
  const { data, isLoading, isFetching, error, refetch } = useUsersQuery(list.query);
  const [remove] = useDeleteUserMutation();
  const canManage = useCan('users:manage');
  const del = async (u: User) => {
    const result = await remove(u.id);
    if ('data' in result) notify.success(`User ${u.name} deleted.`);
  };
  const [adding, setAdding] = useState(false);
  const navigate = useNavigate();
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });

  const columns: TableColumnsType<User> = [
    ...(superAdmin ? [{ title: 'Tenant Name', ...sortable('tenantName'), render: (v: string) => v || '-' }] : []),
    {
      title: 'User Name',
      ...sortable('name'),
      render: (name: string, u) => (
        <span>
          {name}
          {u.invited && (
            <Tooltip title="Invited: has not chosen a password yet">
              <Tag color="orange" style={{ marginInlineStart: 8 }}>
                Invited
              </Tag>
            </Tooltip>
          )}
        </span>
      ),
    },
    { title: 'Email', ...sortable('email') },
    { title: 'Phone Number', ...sortable('phone') },
    { title: 'Role', key: 'roles', dataIndex: 'roles', render: (roles: string[]) => rolesText(roles) },
    {
      title: 'Action',
      key: 'action',
      width: 110,
      // Edit and delete stay in view when the table scrolls on a narrow screen.
      fixed: 'right',
      render: (_, u) => (
        <Space>
          <Button type="text" icon={<EditOutlined />} aria-label={`Edit ${u.name}`} onClick={() => navigate(`/dashboards/users/${u.id}`)} />
          <Popconfirm title="Are you sure you want to delete this user?" okText="Yes" cancelText="No" onConfirm={() => del(u)}>
            <Button danger type="text" icon={<DeleteOutlined />} aria-label={`Delete ${u.name}`} />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Users"
        extra={
          canManage && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              Add User
            </Button>
          )
        }
      />
      <Card>
        <TableState isLoading={isLoading} error={error} onRetry={refetch}>
          <Table<User>
            rowKey="id"
            columns={columns}
            dataSource={data?.data.list ?? []}
            loading={isFetching}
            pagination={tablePagination(list, data?.data.count)}
            onChange={list.onTableChange}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <EmptyState text="No users yet. Add User to invite a colleague." /> }}
          />
        </TableState>
      </Card>
      <AddUserDialog open={adding} onClose={() => setAdding(false)} superAdmin={superAdmin} />
    </>
  );
}

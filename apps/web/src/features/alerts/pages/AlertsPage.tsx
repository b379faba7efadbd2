import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Select, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ALERT_TYPE, ALERT_TYPES, may, type Alert } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { StatusDot } from '../../../components/StatusDot.tsx';
import { EmptyState, TableState } from '../../../components/TableStates.tsx';
import { tablePagination } from '../../../lib/tablePagination.ts';
import { useListState } from '../../../lib/useListState.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { tenantOnly } from '../../../lib/tenantOnly.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { acknowledgedText, alertDot, alertTypeLabel } from '../alertStatus.ts';
import { useAlertsQuery } from '../api.ts';
import { AddAlertDialog } from '../components/AddAlertDialog.tsx';

/**
 * Alerts (docs/web-pages.md "Pages"): Tenant Name (superAdmin), status dot with its word, Customer (a link
 * to the alert only for Device Offline alerts), Alert Type, Nr. of Affected Devices, Created, Resolved,
 * Acknowledged (who, when; docs/alerts.md).
 */
export default function AlertsPage() {
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const list = useListState({ pageSize: 10, sort: ['createdAt', 'DESC'] });
  const { data, isLoading, isFetching, error, refetch } = useAlertsQuery(list.query);
  const [adding, setAdding] = useState(false);
  const sortable = (key: string) => ({ key, dataIndex: key, sorter: true, sortOrder: list.sortOrderOf(key) });
  const columns: TableColumnsType<Alert> = [
    ...(superAdmin ? [{ title: 'Tenant Name', key: 'tenantName', dataIndex: 'tenantName' }] : []),
    {
      title: 'Status',
      ...sortable('status'),
      width: 120,
      render: (s: number) => {
        const { dot, word } = alertDot(s);
        return <StatusDot status={dot} label={word} />;
      },
    },
    {
      title: 'Customer',
      ...sortable('customerName'),
      render: (name: string, a) =>
        a.alertType === ALERT_TYPE.deviceOffline ? (
          <Link to={`/dashboards/alerts/${a.id}`} state={{ customerName: a.customerName, customerId: a.customerId }}>
            {name}
          </Link>
        ) : (
          name
        ),
    },
    { title: 'Alert Type', ...sortable('alertType'), render: (t: number) => alertTypeLabel(t) },
    { title: 'Nr. of Affected Devices', ...sortable('offlineCount'), align: 'right' },
    { title: 'Created', ...sortable('createdAt'), render: (v: string) => formatDateTime(v) },
    { title: 'Resolved', key: 'resolvedAt', dataIndex: 'resolvedAt', render: (v: string | null) => formatDateTime(v) },
    { title: 'Acknowledged', key: 'ackedAt', render: (_: unknown, a) => acknowledgedText(a) },
  ];
  // Only roles that may add alerts see the button (the superAdmin neither: tenant data only).
  const addButton = may('alerts:write', auth) && (
    <Button type="primary" icon={<PlusOutlined />} onClick={tenantOnly(superAdmin, () => setAdding(true))}>
      Add Alert
    </Button>
  );
  return (
    <>
      <PageHeader title="Alerts" extra={addButton} />
      <Card>
        <Flex gap={12} wrap="wrap" style={{ marginBottom: 16 }}>
          <Select
            allowClear
            placeholder="Any alert type"
            aria-label="Alert type"
            style={{ minWidth: 260 }}
            value={typeof list.filter.alertType === 'number' ? list.filter.alertType : undefined}
            onChange={(v?: number) => list.setFilter({ ...list.filter, alertType: v })}
            options={ALERT_TYPES.map((label, value) => ({ value, label }))}
          />
          <Select
            allowClear
            placeholder="Any status"
            aria-label="Alert status"
            style={{ minWidth: 160 }}
            value={typeof list.filter.status === 'number' ? list.filter.status : undefined}
            onChange={(v?: number) => list.setFilter({ ...list.filter, status: v })}
            options={[0, 1, 2].map((value) => ({ value, label: alertDot(value).word }))}
          />
        </Flex>
        <TableState isLoading={isLoading} error={error} onRetry={refetch}>
          <Table<Alert>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={data?.data.list ?? []}
            loading={isFetching && !isLoading}
            pagination={tablePagination(list, data?.data.count)}
            onChange={list.onTableChange}
            scroll={{ x: 1040 }}
            locale={{
              emptyText: <EmptyState text="No alerts. Alerts open by themselves when devices go offline or licenses near renewal." />,
            }}
          />
        </TableState>
      </Card>
      <AddAlertDialog open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

import { CheckOutlined, ShopOutlined, ToolOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Popconfirm, Skeleton } from 'antd';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ALERT_MSG, may, type AlertDevice } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { DetailLoadError } from '../../../components/DetailLoadError.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { StatusDot } from '../../../components/StatusDot.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useListState } from '../../../lib/useListState.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { caseLink, portalLink } from '../../../lib/links.ts';
import { useGoToCreatedCase } from '../../cases/index.ts';
import { DevicesTable } from '../../../components/DevicesTable.tsx';
import { tenantOnly } from '../../../lib/tenantOnly.ts';
import { notify } from '../../../lib/notify.ts';
import { acknowledgedText, alertDot, alertTypeLabel } from '../alertStatus.ts';
import { useAckAlertMutation, useAlertDevicesQuery, useAlertQuery, useCreateCaseFromAlertMutation } from '../api.ts';

/**
 * Alert detail (docs/web-pages.md "Pages"): created, resolved, acknowledged (who, when); its devices with Is In
 * Case; Acknowledge (an open alert not yet acknowledged, roles that may: docs/alerts.md); Create New Case
 * (tenant users); View Portal.
 */
export default function AlertDetailPage() {
  const id = Number(useParams().id);
  const location = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const alert = useAlertQuery(id);
  const list = useListState({ prefix: 'dev.', pageSize: 10 });
  const devices = useAlertDevicesQuery({ id, list: list.query });
  const [createCase, creating] = useCreateCaseFromAlertMutation();
  const [ack, acking] = useAckAlertMutation();
  const goToCreatedCase = useGoToCreatedCase();
  const a = alert.data?.data;
  const state = location.state as { customerName?: string; customerId?: number } | null;
  const customerName = a?.customerName ?? state?.customerName ?? `Alert #${id}`;
  const customerId = a?.customerId ?? state?.customerId;

  if (alert.error) {
    return (
      <DetailLoadError
        title={customerName}
        error={alert.error}
        onRetry={alert.refetch}
        notFoundTitle="Alert not found"
        back={{ to: '/dashboards/alerts', label: 'Back to Alerts' }}
      />
    );
  }

  const canAck = may('alerts:ack', auth) && a !== undefined && a.resolvedAt === null && a.ackedAt === null;
  const acknowledge = () => {
    void ack(id).then((result) => {
      if ('data' in result && result.data) notify.success(ALERT_MSG.acknowledged);
    });
  };

  const newCase = tenantOnly(superAdmin, () => {
    void createCase(id).then(goToCreatedCase);
  });

  const inCaseColumn = {
    title: 'Is In Case',
    key: 'isInCase',
    dataIndex: 'isInCase',
    render: (inCase: boolean, d: AlertDevice) =>
      inCase && d.caseId ? <Link {...caseLink({ id: d.caseId, customerId: d.customerId, customerName: d.customerName })}>Yes</Link> : 'No',
  };

  return (
    <>
      <PageHeader
        title={customerName}
        lastCrumb={`Alert #${id}`}
        extra={
          <>
            {canAck && (
              <Button icon={<CheckOutlined />} loading={acking.isLoading} onClick={acknowledge}>
                Acknowledge
              </Button>
            )}
            {may('cases:write', auth) && (
              <Popconfirm
                title="Create a new Case"
                description="Do you want to create a new Case for offline devices in this Alert?"
                okText="Yes"
                cancelText="No"
                onConfirm={newCase}
              >
                <Button type="primary" icon={<ToolOutlined />} loading={creating.isLoading}>
                  Create New Case
                </Button>
              </Popconfirm>
            )}
            <Button
              icon={<ShopOutlined />}
              disabled={!customerId}
              onClick={() => {
                const link = portalLink({ customerId: customerId!, customerName });
                void navigate(link.to, { state: link.state });
              }}
            >
              View Portal
            </Button>
          </>
        }
      />
      <Card style={{ marginBottom: 16 }}>
        {alert.isLoading || !a ? (
          <Skeleton active paragraph={{ rows: 1 }} />
        ) : (
          <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
            <Descriptions.Item label="Status">
              <StatusDot status={alertDot(a.status).dot} label={alertDot(a.status).word} />
            </Descriptions.Item>
            <Descriptions.Item label="Alert Type">{alertTypeLabel(a.alertType)}</Descriptions.Item>
            <Descriptions.Item label="Nr. of Affected Devices">{a.offlineCount}</Descriptions.Item>
            <Descriptions.Item label="Created">{formatDateTime(a.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="Resolved">{formatDateTime(a.resolvedAt)}</Descriptions.Item>
            <Descriptions.Item label="Acknowledged">{acknowledgedText(a)}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card title="Devices">
        <DevicesTable<AlertDevice> list={list} result={devices} extraColumns={[inCaseColumn]} emptyText="This alert holds no devices." />
      </Card>
    </>
  );
}

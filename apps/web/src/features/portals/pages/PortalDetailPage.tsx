import { EditOutlined, FileTextOutlined, PlusOutlined, ProfileOutlined, ToolOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Skeleton } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useAuth } from '../../../lib/state/hooks.ts';
import { DetailLoadError } from '../../../components/DetailLoadError.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useListState } from '../../../lib/useListState.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { useGoToCreatedCase, useCreateCaseMutation, CasesTable } from '../../cases/index.ts';
import { useDevicesQuery, usePortalCasesQuery, usePortalQuery } from '../api.ts';
import { AddLicenseDialog } from '../components/AddLicenseDialog.tsx';
import { DevicesTable } from '../../../components/DevicesTable.tsx';
import { EditPortalDialog } from '../components/EditPortalDialog.tsx';
import { LicensesTable } from '../components/LicensesTable.tsx';
import { PortalPulseCard } from '../components/PortalPulseCard.tsx';
import { PortalTrendCard } from '../components/PortalTrendCard.tsx';
import { tenantOnly } from '../../../lib/tenantOnly.ts';
import { usePaymentMarker } from '../usePaymentMarker.ts';
import { useMay } from '../../../lib/session/permissions.ts';
import { ConnectWebhookCard } from '../components/ConnectWebhookCard.tsx';
import { MaintenanceCard } from '../../maintenance/index.ts';

/**
 * Portal detail (docs/web-pages.md "Pages"): the customer's devices (8), its current maintenance windows,
 * open cases (8), licenses (3), Portal Pulse and reliability; Report, Edit Portal, View Cases; Add License;
 * Open Case from the offline devices; Schedule Maintenance.
 */
export default function PortalDetailPage() {
  const id = Number(useParams().id);
  const location = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const may = useMay();
  usePaymentMarker();
  const portal = usePortalQuery(id);
  const devicesList = useListState({ prefix: 'dev.', pageSize: 8 });
  const devices = useDevicesQuery({ ...devicesList.query, filter: { ...devicesList.filter, customerId: id } });
  const casesList = useListState({ prefix: 'case.', pageSize: 8, sort: ['createdAt', 'DESC'] });
  // Open cases only (status 0..3): the server filters, so the count and the pager are right.
  const openCases = usePortalCasesQuery({ id, list: { ...casesList.query, filter: { ...casesList.filter, open: true } } });
  const [createCase, creating] = useCreateCaseMutation();
  const goToCreatedCase = useGoToCreatedCase();
  const [editing, setEditing] = useState(false);
  const [addingLicense, setAddingLicense] = useState(false);
  const stateName = (location.state as { customerName?: string } | null)?.customerName;
  const p = portal.data?.data;
  const name = p?.name ?? stateName ?? 'Portal';

  if (portal.error) {
    return (
      <DetailLoadError
        title={name}
        error={portal.error}
        onRetry={portal.refetch}
        notFoundTitle="Portal not found"
        back={{ to: '/dashboards/portals', label: 'Back to Portals' }}
      />
    );
  }

  const openCase = tenantOnly(superAdmin, () => {
    void createCase(id).then(goToCreatedCase);
  });

  return (
    <>
      <PageHeader
        title={name}
        lastCrumb={name}
        extra={
          <>
            {may('reports:write') && (
              <Button
                icon={<FileTextOutlined />}
                onClick={() => navigate('/dashboards/reports/create', { state: { customerId: id, customerName: name } })}
              >
                Report
              </Button>
            )}
            {may('portals:write') && (
              <Button icon={<EditOutlined />} onClick={() => setEditing(true)} disabled={!p}>
                Edit Portal
              </Button>
            )}
            <Button
              icon={<ProfileOutlined />}
              onClick={() => navigate(`/dashboards/portals/${id}/case`, { state: { customerName: name } })}
            >
              View Cases
            </Button>
          </>
        }
      />
      {p && devices.data?.data.count === 0 && !devicesList.filter.status && may('portals:write') && <ConnectWebhookCard portal={p} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={17}>
          <Card title="Devices" style={{ height: '100%' }}>
            <DevicesTable
              list={devicesList}
              result={devices}
              emptyText="No devices yet. Devices appear when the portal's webhook reports them."
            />
          </Card>
        </Col>
        <Col xs={24} xl={7}>
          {portal.isLoading ? <Skeleton active /> : <PortalPulseCard customerId={id} />}
          <div style={{ marginTop: 16 }}>
            <PortalTrendCard customerId={id} />
          </div>
        </Col>
        <Col xs={24}>
          <MaintenanceCard customerId={id} />
        </Col>
        <Col xs={24} xxl={12}>
          <Card
            title="Open Cases"
            style={{ height: '100%' }}
            extra={
              may('cases:write') && (
                <Button icon={<ToolOutlined />} onClick={openCase} loading={creating.isLoading}>
                  Open Case
                </Button>
              )
            }
          >
            <CasesTable
              list={casesList}
              result={openCases}
              superAdmin={false}
              pager={{ hideOnSinglePage: true }}
              emptyText={may('cases:write') ? 'No open cases. Open Case gathers the offline devices into a new case.' : 'No open cases.'}
            />
          </Card>
        </Col>
        <Col xs={24} xxl={12}>
          <Card
            title="Licenses"
            style={{ height: '100%' }}
            extra={
              may('licenses:write') && (
                <Button icon={<PlusOutlined />} onClick={() => setAddingLicense(true)} disabled={!p}>
                  Add License
                </Button>
              )
            }
          >
            <LicensesTable customerId={id} />
          </Card>
        </Col>
      </Row>
      {p && <EditPortalDialog portal={p} open={editing} onClose={() => setEditing(false)} />}
      {p && <AddLicenseDialog portal={p} open={addingLicense} onClose={() => setAddingLicense(false)} />}
    </>
  );
}

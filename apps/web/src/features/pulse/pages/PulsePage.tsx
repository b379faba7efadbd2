import { Col, Row } from 'antd';
import { useAuth } from '../../../app/hooks.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { isSuperAdmin } from '../../auth/authSlice.ts';
import { usePulseSummaryQuery } from '../api.ts';
import { AllCustomersTable } from '../components/AllCustomersTable.tsx';
import { CompanyPulseCard } from '../components/CompanyPulseCard.tsx';
import { DeviceTypeSummary } from '../components/DeviceTypeSummary.tsx';
import { LiveEventsTable } from '../components/LiveEventsTable.tsx';
import { OpenCaseStatusCard } from '../components/OpenCaseStatusCard.tsx';
import { PulseCasesCard } from '../components/PulseCasesCard.tsx';
import { ReliabilityPanel, ReliabilityPanelSkeleton } from '../components/ReliabilityPanel.tsx';
import { LIMITS } from '@vigil/contracts';

/**
 * Pulse (spec §2): the wall-screen page. Counts by type on top, then the donut and
 * reliability, open cases and live events, then every customer. The live-events stream
 * (mounted by the shell) keeps the counts, the donut and Live Events current.
 */
export default function PulsePage() {
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const summary = usePulseSummaryQuery();
  const title = auth.tenantName ? `Pulse ${auth.tenantName}` : 'Pulse';

  return (
    <>
      <PageHeader title={title} />
      <Row gutter={[16, 16]}>
        <Col span={24}>
          <DeviceTypeSummary />
        </Col>
        <Col xs={24} lg={10} xl={8}>
          <Row gutter={[16, 16]}>
            <Col span={24}>
              <CompanyPulseCard />
            </Col>
            <Col span={24}>
              {summary.isLoading ? (
                <ReliabilityPanelSkeleton />
              ) : (
                <ReliabilityPanel score={summary.data?.data.avgReliabilityScore} goal={summary.data?.data.goalScore ?? LIMITS.goalScoreDefault} />
              )}
            </Col>
          </Row>
        </Col>
        <Col xs={24} lg={14} xl={16}>
          <OpenCaseStatusCard />
        </Col>
        <Col xs={24} xl={10}>
          <LiveEventsTable />
        </Col>
        <Col xs={24} xl={14}>
          <PulseCasesCard superAdmin={superAdmin} />
        </Col>
        <Col span={24}>
          <AllCustomersTable superAdmin={superAdmin} />
        </Col>
      </Row>
    </>
  );
}

import { Col, Row } from 'antd';
import { LIMITS } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { usePulseSummaryQuery } from '../api.ts';
import { AllCustomersTable } from './AllCustomersTable.tsx';
import { CompanyPulseCard } from './CompanyPulseCard.tsx';
import { DeviceTypeSummary } from './DeviceTypeSummary.tsx';
import { LiveEventsTable } from './LiveEventsTable.tsx';
import { OpenCaseStatusCard } from './OpenCaseStatusCard.tsx';
import { PulseCasesCard } from './PulseCasesCard.tsx';
import { FirstRunCard } from './FirstRunCard.tsx';
import { ReliabilityTrendCard } from './ReliabilityTrendCard.tsx';
import { ReliabilityPanel, ReliabilityPanelSkeleton } from '../../../components/ReliabilityPanel.tsx';

/**
 * The body of Pulse (docs/web-pages.md "Pages") under its header: counts by type on top, then the donut and
 * reliability, open cases and live events, then every customer. The live-events stream
 * (mounted by the shell) keeps the counts, the donut and Live Events current.
 */
export default function PulseBody() {
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const summary = usePulseSummaryQuery();

  return (
    <Row gutter={[16, 16]}>
      {!superAdmin && (
        <Col span={24}>
          <FirstRunCard />
        </Col>
      )}
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
              <ReliabilityPanel
                score={summary.data?.data.avgReliabilityScore}
                goal={summary.data?.data.goalScore ?? LIMITS.goalScoreDefault}
              />
            )}
          </Col>
        </Row>
      </Col>
      <Col xs={24} lg={14} xl={16}>
        <OpenCaseStatusCard />
      </Col>
      <Col xs={24} xl={9}>
        <LiveEventsTable />
      </Col>
      <Col xs={24} xl={15}>
        <PulseCasesCard superAdmin={superAdmin} />
      </Col>
      <Col span={24}>
        <ReliabilityTrendCard />
      </Col>
      <Col span={24}>
        <AllCustomersTable superAdmin={superAdmin} />
      </Col>
    </Row>
  );
}

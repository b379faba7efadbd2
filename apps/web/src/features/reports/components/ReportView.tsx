import { Card, Col, Descriptions, Empty, Row, Statistic, Table, Tag } from 'antd';
import { useMemo } from 'react';
import type { ReportContent } from '@vigil/contracts';
import { BRAND, STATUS_COLORS } from '../../../lib/theme.ts';
import { BarChart } from '../../../components/charts/BarChart.tsx';
import { OnlineOfflineDonut } from '../../../components/charts/DonutChart.tsx';
import { caseStatusSeries, dailyShareSeries } from '../../../components/charts/series.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatDuration, periodText } from '../format.ts';
import { deviceTypeLabel } from '../../../components/deviceColumns.tsx';

/** The figures and charts of a report (saved or preview): only the sections its config asks for. */
export default function ReportView({ content }: { content: ReportContent }) {
  const { openCases, portalPulse, reliability } = content;
  const caseBars = useMemo(() => caseStatusSeries(openCases?.byStatus ?? []), [openCases]);
  const daily = useMemo(() => dailyShareSeries(portalPulse?.daily ?? []), [portalPulse]);
  return (
    <div className="vigil-report">
      <Card style={{ marginBottom: 16 }}>
        <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} size="small">
          <Descriptions.Item label="Customer">{content.portal.name}</Descriptions.Item>
          <Descriptions.Item label="Period">
            <span data-testid="report-period">
              {content.period.label}: {periodText(content.period)}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label="Generated">{formatDateTime(content.generatedAt)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={[16, 16]}>
        {openCases && (
          <Col xs={24} xl={12}>
            <Card title="Open Cases" style={{ height: '100%' }}>
              <Row gutter={16} style={{ marginBottom: 8 }}>
                <Col span={8}>
                  <Statistic title="Open at end" value={openCases.openAtEnd} />
                </Col>
                <Col span={8}>
                  <Statistic title="Opened" value={openCases.openedInPeriod} />
                </Col>
                <Col span={8}>
                  <Statistic title="Completed" value={openCases.completedInPeriod} />
                </Col>
              </Row>
              <BarChart
                ariaLabel="Cases by status"
                seriesName="Cases"
                {...caseBars}
                height={220}
                color={BRAND}
                barMaxWidth={36}
                wrapLabels
                roundedTop
              />
            </Card>
          </Col>
        )}
        {portalPulse && (
          <Col xs={24} xl={12}>
            <Card title="Portal Pulse" style={{ height: '100%' }}>
              <Row gutter={16}>
                <Col xs={24} md={10}>
                  <OnlineOfflineDonut onlineCount={portalPulse.onlineCount} offlineCount={portalPulse.offlineCount} label="Portal Pulse" />
                </Col>
                <Col xs={24} md={14}>
                  {portalPulse.daily.length ? (
                    <BarChart
                      ariaLabel="Daily online share"
                      seriesName="Online share"
                      {...daily}
                      height={240}
                      color={STATUS_COLORS.online}
                      barMaxWidth={24}
                      scale={{ max: 100, step: 20 }}
                      format={(v) => `${v}%`}
                    />
                  ) : (
                    <Empty description="No daily history in this period." />
                  )}
                </Col>
              </Row>
            </Card>
          </Col>
        )}
        {reliability && (
          <Col span={24}>
            <Card title="Reliability Score">
              <Row gutter={16} style={{ marginBottom: 16 }}>
                <Col xs={12} md={6}>
                  <Statistic title="Score" value={reliability.score < 0 ? '-' : `${reliability.score.toFixed(1)}%`} />
                </Col>
                <Col xs={12} md={6}>
                  <Statistic title="Goal" value={`${reliability.goal.toFixed(1)}%`} />
                </Col>
                <Col xs={24} md={12} style={{ display: 'flex', alignItems: 'center' }}>
                  {reliability.score >= 0 && (
                    <Tag color={reliability.meetsGoal ? 'green' : 'orange'}>
                      {reliability.meetsGoal ? 'Meets the goal' : 'Below the goal'}
                    </Tag>
                  )}
                </Col>
              </Row>
              {/* Device time in maintenance windows counts neither online nor offline (docs/web-pages.md "Maintenance windows"). */}
              {reliability.maintenanceSeconds > 0 && (
                <p data-testid="maintenance-excluded" style={{ marginTop: -4 }}>
                  Maintenance excluded: {formatDuration(reliability.maintenanceSeconds)}
                </p>
              )}
              <Table
                rowKey="id"
                size="small"
                pagination={false}
                dataSource={reliability.topOfflineDevices}
                locale={{ emptyText: 'No device was offline in this period.' }}
                columns={[
                  { title: 'Device', dataIndex: 'name', key: 'name' },
                  { title: 'Type', dataIndex: 'deviceType', key: 'deviceType', render: (t: number) => deviceTypeLabel(t) },
                  { title: 'Offline time', dataIndex: 'offlineSeconds', key: 'offlineSeconds', render: (s: number) => formatDuration(s) },
                ]}
              />
            </Card>
          </Col>
        )}
      </Row>
    </div>
  );
}

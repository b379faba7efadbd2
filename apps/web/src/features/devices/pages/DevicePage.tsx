import { Card, Col, Descriptions, Radio, Row, Skeleton, Statistic, Table, theme } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { DetailLoadError } from '../../../components/DetailLoadError.tsx';
import { deviceTypeLabel } from '../../../components/deviceColumns.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { deviceDotStatus, StatusDot } from '../../../components/StatusDot.tsx';
import { EmptyState } from '../../../components/TableStates.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { caseLink, portalLink } from '../../../lib/links.ts';
import { MaintenanceCard } from '../../maintenance/index.ts';
import { useDeviceHistoryQuery, useDeviceQuery } from '../api.ts';
import { StatusTimeline, TimelineLegend } from '../charts/StatusTimeline.tsx';
import { clip, DAY_MS, formatLength, RANGES, scoreOf, scoreText, STATUS_WORD, type Period, type RangeKey } from '../history.ts';

/** A status-2 period: the contract's PERIOD_STATUS.maintenance, written here so the page does not load the contract's schemas. */
const MAINTENANCE_PERIOD = 2;

/** How many status changes the page lists, newest first. */
const RECENT_CHANGES = 10;

/**
 * Device page (docs/history.md): identity with links to its portal, open case and open alert; a status
 * timeline for 24 h / 7 d / 30 d / 90 d; the reliability over each range; the recent status changes; the
 * maintenance windows covering it (docs/web-pages.md "Maintenance windows"). One history call (the last 90 days) feeds the timeline, the four scores and the changes.
 */
export default function DevicePage() {
  const id = Number(useParams().id);
  const { token } = theme.useToken();
  const device = useDeviceQuery(id);
  // The page's "now", fixed while it is open (refresh the page for a newer one).
  const [now] = useState(() => Date.now());
  const span = useMemo(() => ({ from: new Date(now - 90 * DAY_MS).toISOString(), to: new Date(now).toISOString() }), [now]);
  const history = useDeviceHistoryQuery({ id, ...span }, { skip: !device.data });
  const [range, setRange] = useState<RangeKey>('7d');
  const d = device.data?.data;
  const periods = useMemo(() => history.data?.data.periods ?? [], [history.data]);
  const rangeMs = RANGES.find((r) => r.key === range)!.ms;
  const shown = useMemo(() => clip(periods, now - rangeMs, now), [periods, now, rangeMs]);
  const recent = useMemo(() => [...periods].reverse().slice(0, RECENT_CHANGES), [periods]);

  if (device.error) {
    return (
      <DetailLoadError
        title={`Device #${id}`}
        error={device.error}
        onRetry={device.refetch}
        notFoundTitle="Device not found"
        back={{ to: '/dashboards/portals', label: 'Back to Portals' }}
      />
    );
  }
  const portal = d && portalLink({ customerId: d.customerId, customerName: d.customerName });

  return (
    <>
      <PageHeader title={d?.name ?? `Device #${id}`} lastCrumb={d?.name ?? `Device #${id}`} />
      <Card style={{ marginBottom: 16 }}>
        {!d ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : (
          <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
            <Descriptions.Item label="Status">
              {d.inMaintenance ? (
                // In a window the device still reports; that status is what "since" dates.
                <span data-testid="device-status">
                  <StatusDot status="maintenance" label="In maintenance" />
                  <span style={{ marginLeft: 6, color: token.colorTextSecondary }}>
                    reports {STATUS_WORD[d.status] ?? 'Unknown'} since {formatDateTime(d.statusSince)}
                  </span>
                </span>
              ) : (
                <span data-testid="device-status">
                  <StatusDot status={deviceDotStatus(d.status)} />
                  <span style={{ marginLeft: 6, color: token.colorTextSecondary }}>since {formatDateTime(d.statusSince)}</span>
                </span>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="Type">{deviceTypeLabel(d.deviceType)}</Descriptions.Item>
            <Descriptions.Item label="Model">{d.deviceModel || '-'}</Descriptions.Item>
            <Descriptions.Item label="Portal">
              <Link to={portal!.to} state={portal!.state}>
                {d.customerName}
              </Link>
            </Descriptions.Item>
            <Descriptions.Item label="First Seen">{formatDateTime(d.firstSeen)}</Descriptions.Item>
            <Descriptions.Item label="Last Check-in">{formatDateTime(d.lastOnline)}</Descriptions.Item>
            <Descriptions.Item label="Open Case">
              {d.caseId ? (
                <Link {...caseLink({ id: d.caseId, customerId: d.customerId, customerName: d.customerName })}>Case #{d.caseId}</Link>
              ) : (
                'None'
              )}
            </Descriptions.Item>
            <Descriptions.Item label="Open Alert">
              {d.openAlertId ? (
                <Link to={`/dashboards/alerts/${d.openAlertId}`} state={{ customerName: d.customerName, customerId: d.customerId }}>
                  Alert #{d.openAlertId}
                </Link>
              ) : (
                'None'
              )}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>

      <Card
        title="Reliability"
        style={{ marginBottom: 16 }}
        extra={d && <span style={{ color: token.colorTextSecondary }}>Goal {d.goalScore.toFixed(1)}%</span>}
      >
        {history.isLoading || !d ? (
          <Skeleton active paragraph={{ rows: 1 }} />
        ) : (
          <Row gutter={[16, 16]} data-testid="device-reliability">
            {RANGES.map((r) => {
              const score = scoreOf(clip(periods, now - r.ms, now));
              const below = score >= 0 && score < d.goalScore;
              return (
                <Col xs={12} md={6} key={r.key}>
                  <Statistic
                    title={`Last ${r.label}`}
                    value={scoreText(score)}
                    valueStyle={{ color: score < 0 ? token.colorTextTertiary : below ? token.colorError : token.colorSuccess }}
                  />
                </Col>
              );
            })}
          </Row>
        )}
      </Card>

      <Card
        title="Status Timeline"
        style={{ marginBottom: 16 }}
        extra={
          <Radio.Group
            size="small"
            optionType="button"
            value={range}
            onChange={(e) => setRange(e.target.value as RangeKey)}
            options={RANGES.map((r) => ({ label: r.label, value: r.key }))}
            aria-label="Timeline range"
          />
        }
      >
        {history.isLoading || !d ? (
          <Skeleton active paragraph={{ rows: 1 }} />
        ) : (
          <>
            <StatusTimeline periods={shown} from={now - rangeMs} to={now} />
            <TimelineLegend />
          </>
        )}
      </Card>

      {d && (
        <div style={{ marginBottom: 16 }}>
          <MaintenanceCard customerId={d.customerId} deviceId={d.id} />
        </div>
      )}

      <Card title="Recent Status Changes">
        <Table<Period>
          rowKey="from"
          size="small"
          loading={history.isLoading}
          dataSource={recent}
          pagination={false}
          scroll={{ x: 520 }}
          locale={{ emptyText: <EmptyState text="No status changes in the last 90 days." /> }}
          columns={[
            {
              title: 'Status',
              key: 'status',
              dataIndex: 'status',
              render: (s: number) => (
                <StatusDot status={s === MAINTENANCE_PERIOD ? 'maintenance' : deviceDotStatus(s)} label={STATUS_WORD[s]} />
              ),
            },
            { title: 'From', key: 'from', dataIndex: 'from', render: (v: string) => formatDateTime(v) },
            {
              title: 'To',
              key: 'to',
              dataIndex: 'to',
              // The open period ends at the time of the call: shown as Now. In maintenance it is the status-2 one.
              render: (v: string, p, i) =>
                i === 0 && d && p.status === (d.inMaintenance ? MAINTENANCE_PERIOD : d.status) && Date.parse(v) >= now - 60_000
                  ? 'Now'
                  : formatDateTime(v),
            },
            { title: 'Length', key: 'length', render: (_v, p) => formatLength(Date.parse(p.to) - Date.parse(p.from)) },
          ]}
        />
      </Card>
    </>
  );
}

import { Card, Col, Row } from 'antd';
import { useMemo } from 'react';
import { BRAND, NARROW_QUERY } from '../../../lib/theme.ts';
import { BarChart } from '../../../components/charts/BarChart.tsx';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';
import { CountGauge } from '../../../components/charts/CountGauge.tsx';
import { chartHeight } from '../../../components/charts/geometry.ts';
import { caseStatusSeries } from '../../../components/charts/series.ts';
import { EmptyState, ErrorState } from '../../../components/TableStates.tsx';
import { useMediaQuery } from '../../../lib/useMediaQuery.ts';
import { rowsOf } from '../rows.ts';
import { useCaseStatusCountsQuery, useQuarterCompletedQuery } from '../../cases/index.ts';

/** Open Case Status (docs/web-pages.md "Pages"): open cases by status, and a gauge of cases completed this quarter. */
export function OpenCaseStatusCard() {
  const counts = useCaseStatusCountsQuery();
  const quarter = useQuarterCompletedQuery();
  const narrow = useMediaQuery(NARROW_QUERY);
  const bars = useMemo(() => caseStatusSeries(rowsOf<{ caseType: number; count: number }>(counts.data?.data)), [counts.data]);
  const completed = quarter.data?.data.count ?? 0;
  const height = chartHeight(narrow);
  return (
    // The body fills the card (as tall as the donut and reliability beside it) with the charts centred.
    <Card
      title="Open Case Status"
      style={{ height: '100%', display: 'flex', flexDirection: 'column' }}
      styles={{ body: { flex: 1, display: 'flex', alignItems: 'center' } }}
    >
      <Row gutter={[16, 16]} style={{ width: '100%' }}>
        <Col xs={24} md={15}>
          {counts.error ? (
            <ErrorState error={counts.error} onRetry={counts.refetch} />
          ) : counts.isLoading ? (
            <ChartSkeleton height={height} />
          ) : bars.values.every((v) => !v) ? (
            // No open case: a sentence, not an empty 0-1 axis.
            <div
              role="img"
              aria-label={`Open cases by status: ${bars.categories.map((c) => `${c} 0`).join(', ')}`}
              style={{ height, display: 'grid', placeItems: 'center' }}
            >
              <EmptyState text="No open cases. Cases gather a customer's offline devices." />
            </div>
          ) : (
            <BarChart
              ariaLabel="Open cases by status"
              seriesName="Open cases"
              {...bars}
              height={height}
              color={BRAND}
              barMaxWidth={36}
              wrapLabels
              roundedTop
            />
          )}
        </Col>
        <Col xs={24} md={9}>
          {quarter.error ? (
            <ErrorState error={quarter.error} onRetry={quarter.refetch} />
          ) : quarter.isLoading ? (
            <ChartSkeleton height={height} />
          ) : (
            <CountGauge
              value={completed}
              label="Completed this quarter"
              height={height}
              ariaLabel={`${completed} cases completed this quarter`}
            />
          )}
        </Col>
      </Row>
    </Card>
  );
}

import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Tooltip } from 'antd';
import type { EChartsType } from 'echarts/core';
import { useRef } from 'react';
import { NARROW_QUERY } from '../../../app/theme.ts';
import { ChartSkeleton } from '../../../components/charts/EChart.tsx';
import { chartHeight } from '../../../components/charts/options.ts';
import { useMediaQuery } from '../../../lib/useMediaQuery.ts';
import { OnlineOfflineDonut } from '../../../components/charts/DonutChart.tsx';
import { ErrorState } from '../../../components/TableStates.tsx';
import { usePulseSummaryQuery } from '../api.ts';

/** Saves a chart as a PNG (the spec's export), with the card's background so dark mode stays readable. */
export function downloadChartPng(chart: EChartsType | null, fileName: string): void {
  if (!chart) return;
  const url = chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#ffffff' });
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
}

/** Company Wide Pulse: online/offline donut, exportable to PNG; hidden until the counts are known. */
export function CompanyPulseCard() {
  const { data, isLoading, error, refetch } = usePulseSummaryQuery();
  const chart = useRef<EChartsType | null>(null);
  const summary = data?.data;
  const narrow = useMediaQuery(NARROW_QUERY);
  return (
    <Card
      title="Company Wide Pulse"
      style={{ height: '100%' }}
      extra={
        summary && (
          <Tooltip title="Download PNG">
            <Button size="small" icon={<DownloadOutlined />} aria-label="Download PNG" onClick={() => downloadChartPng(chart.current, 'company-wide-pulse.png')} />
          </Tooltip>
        )
      }
    >
      {error ? (
        <ErrorState error={error} onRetry={refetch} />
      ) : isLoading || !summary ? (
        <ChartSkeleton height={chartHeight(narrow)} />
      ) : (
        <OnlineOfflineDonut
          onlineCount={summary.onlineCount}
          offlineCount={summary.offlineCount}
          label="Company Wide Pulse"
          onChart={(c) => (chart.current = c)}
        />
      )}
    </Card>
  );
}

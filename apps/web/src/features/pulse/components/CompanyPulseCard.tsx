import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, theme, Tooltip } from 'antd';
import { useRef } from 'react';
import { NARROW_QUERY } from '../../../lib/theme.ts';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';
import { OnlineOfflineDonut } from '../../../components/charts/DonutChart.tsx';
import { downloadSvgAsPng } from '../../../components/charts/exportPng.ts';
import { chartHeight } from '../../../components/charts/geometry.ts';
import { useMediaQuery } from '../../../lib/useMediaQuery.ts';
import { ErrorState } from '../../../components/TableStates.tsx';
import { usePulseSummaryQuery } from '../api.ts';

/** Company Wide Pulse: online/offline donut, exportable to PNG; hidden until the counts are known. */
export function CompanyPulseCard() {
  const { data, isLoading, error, refetch } = usePulseSummaryQuery();
  const chart = useRef<SVGSVGElement>(null);
  const { token } = theme.useToken();
  const summary = data?.data;
  const narrow = useMediaQuery(NARROW_QUERY);
  return (
    <Card
      title="Company Wide Pulse"
      style={{ height: '100%' }}
      extra={
        summary && (
          <Tooltip title="Download PNG">
            <Button
              size="small"
              icon={<DownloadOutlined />}
              aria-label="Download PNG"
              onClick={() => void downloadSvgAsPng(chart.current, 'company-wide-pulse.png', token.colorBgContainer)}
            />
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
          svgRef={chart}
        />
      )}
    </Card>
  );
}

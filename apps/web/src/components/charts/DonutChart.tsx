import type { EChartsType } from 'echarts/core';
import { useMemo } from 'react';
import { NARROW_QUERY } from '../../app/theme.ts';
import { useMediaQuery } from '../../lib/useMediaQuery.ts';
import { EChart } from './EChart.tsx';
import { chartHeight, onlineOfflineDonut } from './options.ts';
import { useContainerWidth } from './useContainerWidth.ts';

/** Online/offline donut sized by the spec's radius rule for its container width. */
export function OnlineOfflineDonut({
  onlineCount,
  offlineCount,
  label,
  onChart,
}: {
  onlineCount: number;
  offlineCount: number;
  label: string;
  onChart?: (chart: EChartsType | null) => void;
}) {
  const narrow = useMediaQuery(NARROW_QUERY);
  const [ref, width] = useContainerWidth<HTMLDivElement>();
  const option = useMemo(() => onlineOfflineDonut({ onlineCount, offlineCount }, width), [onlineCount, offlineCount, width]);
  return (
    <div ref={ref}>
      <EChart option={option} height={chartHeight(narrow)} ariaLabel={`${label}: ${onlineCount} online, ${offlineCount} offline`} onChart={onChart} />
    </div>
  );
}

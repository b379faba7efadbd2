import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import type { EChartCanvasProps } from './EChartCanvas.tsx';

/** ECharts loads on first use (its own chunk), never with the shell. */
const EChartCanvas = lazy(() => import('./EChartCanvas.tsx'));

/** The space of a chart while it (or its data) loads: exactly its height, so nothing moves after. */
export function ChartSkeleton({ height }: { height: number }) {
  return (
    <div style={{ height }}>
      <Skeleton.Node active style={{ width: '100%', height }} />
    </div>
  );
}

/** A chart that follows the light/dark theme; `option` is a plain ECharts option. */
export function EChart(props: Omit<EChartCanvasProps, 'dark'>) {
  const dark = useAppSelector((s) => s.theme.mode) === 'dark';
  return (
    <Suspense fallback={<ChartSkeleton height={props.height} />}>
      <EChartCanvas {...props} dark={dark} />
    </Suspense>
  );
}

import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import type { EChartCanvasProps } from './EChartCanvas.tsx';

/** ECharts loads on first use (its own chunk), never with the shell. */
const EChartCanvas = lazy(() => import('./EChartCanvas.tsx'));

/** A chart that follows the light/dark theme; `option` is a plain ECharts option. */
export function EChart(props: Omit<EChartCanvasProps, 'dark'>) {
  const dark = useAppSelector((s) => s.theme.mode) === 'dark';
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height }} />}>
      <EChartCanvas {...props} dark={dark} />
    </Suspense>
  );
}

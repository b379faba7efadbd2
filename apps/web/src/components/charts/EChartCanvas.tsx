import { useEffect, useRef } from 'react';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { echarts } from './echartsCore.ts';

export interface EChartCanvasProps {
  option: EChartsCoreOption;
  height: number;
  dark: boolean;
  ariaLabel: string;
  onChart?: (chart: EChartsType | null) => void;
}

/**
 * One ECharts instance on a canvas: re-created when the theme changes, resized with its
 * container (ResizeObserver), updated in place (merge) when the option changes so live
 * updates of the same series do not restart animations.
 */
export default function EChartCanvas({ option, height, dark, ariaLabel, onChart }: EChartCanvasProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const instance = echarts.init(node, dark ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    onChart?.(instance);
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(node);
    return () => {
      observer.disconnect();
      onChart?.(null);
      instance.dispose();
      chart.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', ...option });
  }, [option, dark]);

  return <div ref={el} role="img" aria-label={ariaLabel} style={{ width: '100%', height }} />;
}

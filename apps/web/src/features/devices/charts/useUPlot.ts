import { useEffect, useState, type RefObject } from 'react';
import type uPlot from 'uplot';

type UPlotClass = typeof uPlot;

let loading: Promise<UPlotClass> | undefined;

/** uPlot and its stylesheet, loaded on first use (a chunk of its own, docs/history.md "Charts"). */
export function loadUPlot(): Promise<UPlotClass> {
  loading ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([m]) => m.default);
  return loading;
}

/**
 * Draws a uPlot chart into `container` once the library is loaded and the width is known; draws it
 * again when `build`'s inputs change (the caller memoizes it), and destroys it on unmount.
 */
export function useUPlot(
  container: RefObject<HTMLDivElement | null>,
  width: number,
  build: ((U: UPlotClass, width: number) => { opts: uPlot.Options; data: uPlot.AlignedData }) | null,
): boolean {
  const [U, setU] = useState<UPlotClass | null>(null);
  useEffect(() => {
    let live = true;
    void loadUPlot().then((lib) => live && setU(() => lib));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    const node = container.current;
    if (!U || !node || width <= 0 || !build) return;
    const { opts, data } = build(U, Math.floor(width));
    const chart = new U(opts, data, node);
    return () => chart.destroy();
  }, [U, container, width, build]);
  return U !== null;
}

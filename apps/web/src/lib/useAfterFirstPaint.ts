import { startTransition, useEffect, useState } from 'react';

/**
 * False on the first render, true right after the browser has painted it (an animation frame, then a
 * task: the frame's paint comes between them); at once where nothing is painted (a hidden tab, no
 * animation frames). For the expensive part of a page, so its cheap part (the header) paints first;
 * the switch is a transition, so rendering the rest yields to input.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    const show = () => startTransition(() => setPainted(true));
    if (document.hidden || typeof requestAnimationFrame !== 'function') {
      show();
      return;
    }
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (task = setTimeout(show, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, []);
  return painted;
}

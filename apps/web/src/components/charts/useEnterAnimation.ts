import { useCallback, useRef } from 'react';
import { ENTER_MS } from './geometry.ts';

/**
 * A ref callback that plays `keyframes` once, the first time its element is attached (the
 * chart's first draw); later renders with new data do not animate (live updates stay still).
 * Skipped when the user asks for reduced motion, and where the Web Animations API is missing.
 */
export function useEnterAnimation(keyframes: Keyframe[]) {
  const played = useRef(false);
  const frames = useRef(keyframes);
  return useCallback((el: Element | null) => {
    if (!el || played.current) return;
    played.current = true;
    if (typeof el.animate !== 'function' || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    el.animate(frames.current, { duration: ENTER_MS, easing: 'cubic-bezier(0.2, 0, 0, 1)' });
  }, []);
}

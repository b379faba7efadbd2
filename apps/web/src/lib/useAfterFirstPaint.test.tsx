import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';

function Probe() {
  return <span data-testid="state">{useAfterFirstPaint() ? 'after' : 'first'}</span>;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('useAfterFirstPaint', () => {
  it('is false for the first paint and true after the next animation frame and task', async () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    render(<Probe />);
    expect(screen.getByTestId('state').textContent).toBe('first');
    // The frame has not come yet: still the first render.
    await act(() => Promise.resolve(vi.advanceTimersByTime(50)));
    expect(screen.getByTestId('state').textContent).toBe('first');
    await act(() => {
      frames.shift()!(0);
      vi.advanceTimersByTime(0);
      return Promise.resolve();
    });
    expect(screen.getByTestId('state').textContent).toBe('after');
  });

  it('does not wait where nothing is painted (no animation frames)', async () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    render(<Probe />);
    await act(async () => {});
    expect(screen.getByTestId('state').textContent).toBe('after');
  });
});

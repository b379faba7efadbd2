import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

afterEach(cleanup);
import { formatScore, ReliabilityPanel } from '../../components/ReliabilityPanel.tsx';
import { rowsOf } from './rows.ts';

describe('Pulse rows', () => {
  it('reads rows from either list shape', () => {
    expect(rowsOf([{ a: 1 }])).toEqual([{ a: 1 }]);
    expect(rowsOf({ list: [{ a: 2 }], count: 1 })).toEqual([{ a: 2 }]);
    expect(rowsOf(undefined)).toEqual([]);
  });
});

describe('Reliability Score panel', () => {
  it('shows the score and the goal with one decimal', () => {
    render(<ReliabilityPanel score={97.25} goal={95} />);
    expect(screen.getByTestId('reliability-score').textContent).toBe('97.3%');
    expect(screen.getByText('Goal 95.0%')).toBeTruthy();
    expect(screen.getByText('On goal')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Reliability 97.3% against a goal of 95.0%' });
    expect(bar.getAttribute('aria-valuenow')).toBe('97.25');
    expect((bar.firstElementChild!.firstElementChild as HTMLElement).style.width).toBe('97.25%');
  });
  it('says when the score is below the goal', () => {
    render(<ReliabilityPanel score={80} goal={95} />);
    expect(screen.getByText('Below goal')).toBeTruthy();
  });
  it('is hidden while the score is -1 or unknown', () => {
    const { container, rerender } = render(<ReliabilityPanel score={-1} goal={95} />);
    expect(container.innerHTML).toBe('');
    rerender(<ReliabilityPanel score={undefined} goal={95} />);
    expect(container.innerHTML).toBe('');
  });
  it('formats one decimal', () => {
    expect(formatScore(100)).toBe('100.0%');
    expect(formatScore(0.04)).toBe('0.0%');
  });
});

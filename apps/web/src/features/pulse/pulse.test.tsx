import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

afterEach(cleanup);
import { caseStatusBars, chartHeight, countGauge, donutRadius, onlineOfflineDonut } from '../../components/charts/options.ts';
import { formatScore, ReliabilityPanel } from './components/ReliabilityPanel.tsx';
import { rowsOf } from './rows.ts';

describe('donut radius rule (spec §2 Pulse)', () => {
  it('keeps the inner radius at 0.6 and grows the outer one with the container width', () => {
    expect(donutRadius(0)).toEqual({ inner: 0.6, outer: 0.75 });
    expect(donutRadius(299)).toEqual({ inner: 0.6, outer: 0.75 });
    expect(donutRadius(300)).toEqual({ inner: 0.6, outer: 0.8 });
    expect(donutRadius(499)).toEqual({ inner: 0.6, outer: 0.8 });
    expect(donutRadius(500)).toEqual({ inner: 0.6, outer: 0.85 });
    expect(donutRadius(699)).toEqual({ inner: 0.6, outer: 0.85 });
    expect(donutRadius(700)).toEqual({ inner: 0.6, outer: 0.9 });
    expect(donutRadius(1600)).toEqual({ inner: 0.6, outer: 0.9 });
  });
  it('writes the radii into the pie series as percentages, online green and offline red', () => {
    const option = onlineOfflineDonut({ onlineCount: 7, offlineCount: 3 }, 450);
    const series = option.series[0]!;
    expect(series.radius).toEqual(['60%', '80%']);
    expect(series.data.map((d) => [d.name, d.value, d.itemStyle.color])).toEqual([
      ['Online', 7, '#52c41a'],
      ['Offline', 3, '#ff4d4f'],
    ]);
    expect(option.title.text).toBe('10');
    expect(option.animationDurationUpdate).toBe(0);
    expect(option.animationDuration).toBeLessThanOrEqual(300);
  });
  it('draws an empty ring, not two equal halves, when there are no devices', () => {
    const option = onlineOfflineDonut({ onlineCount: 0, offlineCount: 0 }, 450);
    expect(option.series[0]!.data).toEqual([]);
    expect(option.title.text).toBe('0');
  });
  it('is 180 px high on mobile and 240 otherwise', () => {
    expect(chartHeight(true)).toBe(180);
    expect(chartHeight(false)).toBe(240);
  });
});

describe('Open Case Status', () => {
  it('lists the four open statuses in order with zeros for missing ones', () => {
    const option = caseStatusBars([
      { caseType: 2, count: 5 },
      { caseType: 0, count: 1 },
    ]);
    expect(option.xAxis.data).toEqual(['New', 'In Progress', 'Awaiting Delivery', 'Requires Testing']);
    expect(option.series[0]!.data).toEqual([1, 0, 5, 0]);
  });
  it('gauges the completed count on a scale above it', () => {
    const g = countGauge(37, 'Completed this quarter').series[0]!;
    expect(g.data[0]).toEqual({ value: 37, name: 'Completed this quarter' });
    expect(g.max).toBeGreaterThan(37);
    expect(countGauge(0, 'x').series[0]!.max).toBe(10);
  });
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

import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BRAND, STATUS_COLORS } from '../../lib/theme.ts';
import { BarChart } from './BarChart.tsx';
import { CountGauge } from './CountGauge.tsx';
import { EMPTY_RING, OnlineOfflineDonut } from './DonutChart.tsx';
import { standaloneSvg } from './exportPng.ts';
import {
  arcPath,
  chartHeight,
  donutRadius,
  gaugeMax,
  labelInterval,
  niceScale,
  ringSlicePath,
  sliceAngles,
  wrapLabel,
} from './geometry.ts';
import { caseStatusSeries, dailyShareSeries } from './series.ts';

/** jsdom lays nothing out: every chart container measures `width` px. */
function containerWidth(width: number) {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue({
    width,
    height: 240,
    top: 0,
    left: 0,
    right: width,
    bottom: 240,
    x: 0,
    y: 0,
    toJSON: () => ({}),
  });
}
beforeEach(() => containerWidth(450));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The radii of a ring slice's path: its first arc is the outer edge, its second the inner one. */
const arcRadii = (d: string) => [...d.matchAll(/A([\d.]+) /g)].map((m) => Number(m[1]));

describe('chart geometry', () => {
  it('keeps the donut inner radius at 0.6 and grows the outer one with the container width (docs/web-pages.md "Charts")', () => {
    expect(donutRadius(0)).toEqual({ inner: 0.6, outer: 0.75 });
    expect(donutRadius(299)).toEqual({ inner: 0.6, outer: 0.75 });
    expect(donutRadius(300)).toEqual({ inner: 0.6, outer: 0.8 });
    expect(donutRadius(499)).toEqual({ inner: 0.6, outer: 0.8 });
    expect(donutRadius(500)).toEqual({ inner: 0.6, outer: 0.85 });
    expect(donutRadius(699)).toEqual({ inner: 0.6, outer: 0.85 });
    expect(donutRadius(700)).toEqual({ inner: 0.6, outer: 0.9 });
    expect(donutRadius(1600)).toEqual({ inner: 0.6, outer: 0.9 });
  });
  it('is 180 px high on mobile and 240 otherwise', () => {
    expect(chartHeight(true)).toBe(180);
    expect(chartHeight(false)).toBe(240);
  });
  it('scales a value axis in whole steps of 1, 2 or 5 that cover the largest value', () => {
    expect(niceScale(500)).toEqual({ max: 500, step: 100, ticks: [0, 100, 200, 300, 400, 500] });
    expect(niceScale(7)).toEqual({ max: 8, step: 2, ticks: [0, 2, 4, 6, 8] });
    expect(niceScale(0)).toEqual({ max: 1, step: 1, ticks: [0, 1] });
    expect(niceScale(3)).toEqual({ max: 3, step: 1, ticks: [0, 1, 2, 3] });
    expect(niceScale(1234).max).toBe(1500);
  });
  it('gauges a count on a scale of at least 10 that stays above it', () => {
    expect(gaugeMax(0)).toBe(10);
    expect(gaugeMax(37)).toBe(50);
    expect(gaugeMax(500)).toBe(630);
  });
  it('splits a full turn by the values, keeps a visible minimum for a small count, none for zero', () => {
    const [a, b] = sliceAngles([7, 3]);
    expect(a.start).toBe(0);
    expect(a.end).toBeCloseTo(0.7 * 2 * Math.PI);
    expect(b.end).toBeCloseTo(2 * Math.PI);
    const [big, tiny, none] = sliceAngles([4999, 1, 0]);
    expect(tiny.end - tiny.start).toBeCloseTo((2 * Math.PI) / 180);
    expect(big.end - big.start + (tiny.end - tiny.start)).toBeCloseTo(2 * Math.PI);
    expect(none.end - none.start).toBe(0);
  });
  it("draws a ring slice clockwise from 12 o'clock with the large-arc flag past half a turn", () => {
    expect(ringSlicePath(100, 100, 60, 90, 0, Math.PI / 2)).toBe('M100 10A90 90 0 0 1 190 100L160 100A60 60 0 0 0 100 40Z');
    expect(ringSlicePath(100, 100, 60, 90, 0, 1.5 * Math.PI)).toContain('A90 90 0 1 1 10 100');
    expect(arcPath(0, 0, 10, 0, Math.PI)).toBe('M0 -10A10 10 0 0 1 0 10');
  });
  it('wraps long axis labels between words and thins crowded ones', () => {
    expect(wrapLabel('Awaiting Delivery', 76)).toEqual(['Awaiting', 'Delivery']);
    expect(wrapLabel('New', 76)).toEqual(['New']);
    expect(wrapLabel('In Progress', 76)).toEqual(['In Progress']);
    expect(labelInterval(4, 400, 40)).toBe(1);
    expect(labelInterval(90, 450, 40)).toBe(8);
  });
});

describe('chart series', () => {
  it('lists the four open case statuses in order with zeros for missing ones', () => {
    expect(
      caseStatusSeries([
        { caseType: 2, count: 5 },
        { caseType: 0, count: 1 },
      ]),
    ).toEqual({ categories: ['New', 'In Progress', 'Awaiting Delivery', 'Requires Testing'], values: [1, 0, 5, 0] });
  });
  it('leaves days with nothing observed without a bar', () => {
    expect(
      dailyShareSeries([
        { date: '2026-11-01', onlineShare: 97.5 },
        { date: '2026-11-02', onlineShare: -1 },
      ]),
    ).toEqual({ categories: ['11-01', '11-02'], values: [97.5, null] });
  });
});

describe('OnlineOfflineDonut', () => {
  it('draws online green and offline red slices with the product radii, the online share in the hole and the counts in the legend', () => {
    const { container } = render(<OnlineOfflineDonut onlineCount={7} offlineCount={3} label="Company Wide Pulse" />);
    const svg = screen.getByRole('img', { name: 'Company Wide Pulse: 7 online, 3 offline' });
    const online = svg.querySelector('[data-slice="Online"]')!;
    const offline = svg.querySelector('[data-slice="Offline"]')!;
    expect(online.getAttribute('fill')).toBe(STATUS_COLORS.online);
    expect(offline.getAttribute('fill')).toBe(STATUS_COLORS.offline);
    // 450 px wide: outer 0.8 and inner 0.6 of half the chart's smaller side (240 / 2).
    expect(arcRadii(online.getAttribute('d')!)).toEqual([96, 72]);
    expect(svg.querySelector('[data-part="share"]')!.textContent).toBe('70%');
    expect(svg.querySelector('[data-part="total"]')!.textContent).toBe('10');
    expect(svg.querySelector('[data-part="legend"]')!.textContent).toBe('● Online 7● Offline 3of 10');
    expect(container.querySelector('[data-slice="empty"]')).toBeNull();
  });
  it('uses the larger outer radius in a wide container', () => {
    containerWidth(800);
    render(<OnlineOfflineDonut onlineCount={1} offlineCount={1} label="Portal Pulse" />);
    expect(arcRadii(document.querySelector('[data-slice="Online"]')!.getAttribute('d')!)).toEqual([108, 72]);
  });
  it('draws an empty grey ring, not two equal halves, when there are no devices', () => {
    render(<OnlineOfflineDonut onlineCount={0} offlineCount={0} label="Portal Pulse" />);
    const svg = screen.getByRole('img', { name: 'Portal Pulse: 0 online, 0 offline' });
    expect(svg.querySelector('[data-slice="empty"]')!.getAttribute('fill')).toBe(EMPTY_RING);
    expect(svg.querySelector('[data-slice="Online"]')).toBeNull();
    expect(svg.querySelector('[data-slice="Offline"]')).toBeNull();
    expect(svg.querySelector('[data-part="total"]')!.textContent).toBe('0');
    expect(svg.textContent).toContain('devices');
  });
  it('names both counts in a tooltip when the pointer is over the hole', () => {
    render(<OnlineOfflineDonut onlineCount={302} offlineCount={10} label="Company Wide Pulse" />);
    const hole = document.querySelector('[data-part="hole"]')!;
    fireEvent.pointerMove(hole, { clientX: 10, clientY: 10 });
    expect(document.body.textContent).toContain('Company Wide Pulse: 312 devices');
    expect(document.body.textContent).toContain('302 (96.8%)');
    expect(document.body.textContent).toContain('10 (3.2%)');
    fireEvent.pointerLeave(hole);
    expect(document.body.textContent).not.toContain('10 (3.2%)');
  });
  it('draws a full ring for one status alone and names the values in a tooltip on hover', () => {
    render(<OnlineOfflineDonut onlineCount={5000} offlineCount={0} label="Company Wide Pulse" />);
    expect(document.querySelector('[data-slice="Offline"]')).toBeNull();
    const online = document.querySelector('[data-slice="Online"]')!;
    fireEvent.pointerMove(online, { clientX: 10, clientY: 10 });
    expect(document.body.textContent).toContain('5,000 (100%)');
    fireEvent.pointerLeave(online);
    expect(document.body.textContent).not.toContain('5,000 (100%)');
  });
  it('updates in place when the counts change (no new chart)', () => {
    const { rerender } = render(<OnlineOfflineDonut onlineCount={7} offlineCount={1} label="Company Wide Pulse" />);
    const ring = document.querySelector('[data-part="ring"]');
    rerender(<OnlineOfflineDonut onlineCount={6} offlineCount={2} label="Company Wide Pulse" />);
    expect(document.querySelector('[data-part="ring"]')).toBe(ring);
    expect(screen.getByRole('img', { name: 'Company Wide Pulse: 6 online, 2 offline' })).toBeTruthy();
  });
});

describe('BarChart', () => {
  const props = { ariaLabel: 'Open cases by status', seriesName: 'Open cases', height: 240, color: BRAND, barMaxWidth: 36 };
  it('draws one bar per non-zero value, as tall as its value on the axis, with wrapped labels', () => {
    const { container } = render(
      <BarChart
        {...props}
        categories={['New', 'In Progress', 'Awaiting Delivery', 'Requires Testing']}
        values={[500, 250, 0, 100]}
        wrapLabels
        roundedTop
      />,
    );
    expect(
      screen.getByRole('img', { name: 'Open cases by status: New 500, In Progress 250, Awaiting Delivery 0, Requires Testing 100' }),
    ).toBeTruthy();
    const bars = [...container.querySelectorAll('[data-bar]')];
    expect(bars.map((b) => b.getAttribute('data-bar'))).toEqual(['New', 'In Progress', 'Requires Testing']);
    expect(bars.every((b) => b.getAttribute('fill') === BRAND)).toBe(true);
    const heights = bars.map((b) => {
      const ys = [...b.getAttribute('d')!.matchAll(/[MVQ][\d.]+ ([\d.]+)|V([\d.]+)/g)].map((m) => Number(m[1] ?? m[2]));
      return Math.max(...ys) - Math.min(...ys);
    });
    expect(heights[0] / heights[1]).toBeCloseTo(2, 1);
    expect(heights[0] / heights[2]).toBeCloseTo(5, 1);
    const labels = [...container.querySelectorAll('tspan')].map((t) => t.textContent);
    expect(labels).toEqual(['New', 'In Progress', 'Awaiting', 'Delivery', 'Requires', 'Testing']);
    expect(container.textContent).toContain('500');
  });
  it('shows the category and its value in a tooltip on hover', () => {
    const { container } = render(<BarChart {...props} categories={['New', 'In Progress']} values={[3, 9]} />);
    const bands = container.querySelectorAll('rect[fill="transparent"]');
    fireEvent.pointerMove(bands[1], { clientX: 300, clientY: 50 });
    expect(container.textContent).toContain('In ProgressOpen cases9');
  });
  it('leaves a category without data barless and formats a fixed percent axis', () => {
    const { container } = render(
      <BarChart
        {...props}
        ariaLabel="Daily online share"
        categories={['11-01', '11-02']}
        values={[90, null]}
        scale={{ max: 100, step: 20 }}
        format={(v) => `${v}%`}
      />,
    );
    expect(screen.getByRole('img', { name: 'Daily online share: 11-01 90%, 11-02 no data' })).toBeTruthy();
    expect(container.querySelectorAll('[data-bar]')).toHaveLength(1);
    expect([...container.querySelectorAll('text')].map((t) => t.textContent).slice(0, 6)).toEqual([
      '0%',
      '20%',
      '40%',
      '60%',
      '80%',
      '100%',
    ]);
  });
});

describe('CountGauge', () => {
  it('shows the count with its label and fills the arc in proportion to the scale', () => {
    const { container } = render(
      <CountGauge value={37} label="Completed this quarter" height={240} ariaLabel="37 cases completed this quarter" />,
    );
    expect(screen.getByRole('img', { name: '37 cases completed this quarter' })).toBeTruthy();
    expect(container.querySelector('[data-part="value"]')!.textContent).toBe('37');
    expect(container.textContent).toContain('Completed this quarter');
    // 37 of 50: the progress ends 0.74 of the way along 240 degrees from 8 o'clock.
    const progress = container.querySelector('[data-part="progress"]')!.getAttribute('d')!;
    const end = (-2 * Math.PI) / 3 + ((4 * Math.PI) / 3) * 0.74;
    const [, x, y] = progress.match(/ ([-\d.]+) ([-\d.]+)$/)!;
    const radius = 120 * 0.9 - 6;
    expect(Number(x)).toBeCloseTo(225 + radius * Math.sin(end), 1);
    expect(Number(y)).toBeCloseTo(120 - radius * Math.cos(end), 1);
  });
  it('draws no progress at zero', () => {
    const { container } = render(
      <CountGauge value={0} label="Completed this quarter" height={180} ariaLabel="0 cases completed this quarter" />,
    );
    expect(container.querySelector('[data-part="progress"]')).toBeNull();
    expect(container.querySelector('[data-part="value"]')!.textContent).toBe('0');
  });
});

describe('PNG export', () => {
  it('makes the chart a standalone SVG with its size and a background', () => {
    render(<OnlineOfflineDonut onlineCount={7} offlineCount={3} label="Company Wide Pulse" />);
    const { markup, width } = standaloneSvg(screen.getByRole('img') as unknown as SVGSVGElement, '#141414');
    expect(width).toBe(450);
    expect(markup).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(markup).toContain('width="450"');
    expect(markup).toContain('<rect width="100%" height="100%" fill="#141414"');
    expect(markup).toContain(`fill="${STATUS_COLORS.online}"`);
    expect(markup).toContain('font-family=');
  });
});

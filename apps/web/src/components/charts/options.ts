import { CASE_STATUSES, DEVICE_TYPES } from '@vigil/contracts';
import { BRAND, STATUS_COLORS } from '../../app/theme.ts';

/** Animations stay short (visual-design.md); updates of the same series are not animated. */
const MOTION = { animationDuration: 300, animationDurationUpdate: 0 } as const;

/**
 * Donut radii of the spec (Pulse): inner 0.6; outer 0.75 under 300 px container width,
 * 0.8 under 500, 0.85 under 700, else 0.9 (fractions of the chart's half-size).
 */
export function donutRadius(containerWidth: number): { inner: number; outer: number } {
  const outer = containerWidth < 300 ? 0.75 : containerWidth < 500 ? 0.8 : containerWidth < 700 ? 0.85 : 0.9;
  return { inner: 0.6, outer };
}

/** Chart height of the spec: 180 on mobile (769 px or narrower), 240 otherwise. */
export const chartHeight = (narrow: boolean) => (narrow ? 180 : 240);

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Online/offline donut (Company Wide Pulse, Portal Pulse). */
export function onlineOfflineDonut(counts: { onlineCount: number; offlineCount: number }, containerWidth: number) {
  const { inner, outer } = donutRadius(containerWidth);
  const total = counts.onlineCount + counts.offlineCount;
  return {
    ...MOTION,
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0, data: ['Online', 'Offline'] },
    // The total sits in the hole: the title block (about 40 px) centred on the donut's centre (46%).
    title: { text: String(total), subtext: 'devices', left: 'center', top: '35%', textStyle: { fontSize: 22, lineHeight: 24 }, subtextStyle: { fontSize: 12 }, itemGap: 4 },
    series: [
      {
        name: 'Devices',
        type: 'pie',
        radius: [pct(inner), pct(outer)],
        center: ['50%', '46%'],
        avoidLabelOverlap: true,
        label: { show: false },
        // No devices: an empty grey ring, not two equal halves (echarts splits a zero sum evenly).
        emptyCircleStyle: { color: 'rgba(128, 128, 128, 0.18)' },
        data:
          total === 0
            ? []
            : [
                { name: 'Online', value: counts.onlineCount, itemStyle: { color: STATUS_COLORS.online } },
                { name: 'Offline', value: counts.offlineCount, itemStyle: { color: STATUS_COLORS.offline } },
              ],
      },
    ],
  };
}

/** Open cases by status (bar chart). `rows` are {caseType, count}. */
export function caseStatusBars(rows: readonly { caseType: number; count: number }[]) {
  const shown = CASE_STATUSES.slice(0, 4).map((label, code) => ({ label, count: rows.find((r) => r.caseType === code)?.count ?? 0 }));
  return {
    ...MOTION,
    tooltip: { trigger: 'axis' },
    grid: { left: 36, right: 12, top: 16, bottom: 52 },
    xAxis: { type: 'category', data: shown.map((s) => s.label), axisLabel: { interval: 0, fontSize: 11, lineHeight: 14, width: 76, overflow: 'break' } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ name: 'Open cases', type: 'bar', barMaxWidth: 36, data: shown.map((s) => s.count), itemStyle: { color: BRAND, borderRadius: [4, 4, 0, 0] } }],
  };
}

/** Device counts by type (bar chart). */
export function deviceTypeBars(rows: readonly { deviceType: number; totalCount: number }[]) {
  return {
    ...MOTION,
    tooltip: { trigger: 'axis' },
    grid: { left: 36, right: 12, top: 16, bottom: 40 },
    xAxis: { type: 'category', data: DEVICE_TYPES.map((t) => t), axisLabel: { interval: 0, fontSize: 11 } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ name: 'Devices', type: 'bar', barMaxWidth: 36, data: DEVICE_TYPES.map((_, i) => rows.find((r) => r.deviceType === i)?.totalCount ?? 0), itemStyle: { color: BRAND } }],
  };
}

/** Radial gauge of a count (cases completed this quarter); the scale grows with the value. */
export function countGauge(value: number, label: string) {
  const max = Math.max(10, Math.ceil((value * 1.25) / 10) * 10);
  return {
    ...MOTION,
    series: [
      {
        type: 'gauge',
        min: 0,
        max,
        startAngle: 210,
        endAngle: -30,
        radius: '90%',
        progress: { show: true, width: 12, itemStyle: { color: BRAND } },
        axisLine: { lineStyle: { width: 12 } },
        pointer: { show: false },
        axisTick: { show: false },
        splitLine: { show: false },
        axisLabel: { show: false },
        title: { offsetCenter: [0, '35%'], fontSize: 12 },
        detail: { valueAnimation: false, offsetCenter: [0, '-5%'], fontSize: 28, fontWeight: 'bold' },
        data: [{ value, name: label }],
      },
    ],
  };
}

/** Daily online share (percent) as bars; days with nothing observed (-1) are left out. */
export function dailyShareBars(daily: readonly { date: string; onlineShare: number }[]) {
  return {
    ...MOTION,
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v}%` },
    grid: { left: 40, right: 12, top: 16, bottom: 40 },
    xAxis: { type: 'category', data: daily.map((d) => d.date.slice(5)) },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      {
        name: 'Online share',
        type: 'bar',
        barMaxWidth: 24,
        data: daily.map((d) => (d.onlineShare < 0 ? null : d.onlineShare)),
        itemStyle: { color: STATUS_COLORS.online },
      },
    ],
  };
}

import { theme } from 'antd';
import { useCallback, useState } from 'react';
import type uPlot from 'uplot';
import { useContainerWidth } from '../../../components/charts/useContainerWidth.ts';
import { STATUS_COLORS } from '../../../lib/theme.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatLength, periodAt, STATUS_WORD, type Period } from '../history.ts';
import { useUPlot } from './useUPlot.ts';

export const TIMELINE_COLORS: Record<number, string> = { 1: STATUS_COLORS.online, 0: STATUS_COLORS.offline, 2: STATUS_COLORS.maintenance };
const HEIGHT = 64;

interface Props {
  periods: Period[];
  /** The range shown (ms); time before the first period stays empty. */
  from: number;
  to: number;
}

/**
 * A device's status over a range (docs/history.md): one band, green online, red offline, blue
 * maintenance, drawn by uPlot as stepped fills. Hovering names the period, its start, end and length.
 */
export function StatusTimeline({ periods, from, to }: Props) {
  const { token } = theme.useToken();
  const [ref, width] = useContainerWidth<HTMLDivElement>();
  const [hover, setHover] = useState<{ left: number; period: Period } | null>(null);

  const build = useCallback(
    (U: typeof uPlot, w: number) => {
      const xs = periods.map((p) => Date.parse(p.from) / 1000);
      if (periods.length) xs.push(Date.parse(periods[periods.length - 1].to) / 1000);
      const band = (status: number) => {
        const ys = periods.map((p) => (p.status === status ? 1 : 0));
        if (ys.length) ys.push(ys[ys.length - 1]);
        return ys;
      };
      const stepped = U.paths.stepped!({ align: 1 });
      const series = (status: number): uPlot.Series => ({
        label: STATUS_WORD[status],
        stroke: 'transparent',
        width: 0,
        fill: TIMELINE_COLORS[status],
        paths: stepped,
        points: { show: false },
      });
      const opts: uPlot.Options = {
        width: w,
        height: HEIGHT,
        padding: [4, 8, 0, 8],
        legend: { show: false },
        cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
        scales: { x: { time: true, range: () => [from / 1000, to / 1000] }, y: { range: () => [0, 1] } },
        axes: [
          {
            stroke: token.colorTextSecondary,
            grid: { show: false },
            ticks: { stroke: token.colorBorderSecondary },
            font: `11px ${token.fontFamily}`,
            size: 28,
          },
          { show: false },
        ],
        series: [{}, series(1), series(0), series(2)],
        hooks: {
          setCursor: [
            (u) => {
              const left = u.cursor.left ?? -1;
              const period = left >= 0 ? periodAt(periods, u.posToVal(left, 'x') * 1000) : undefined;
              setHover(period ? { left, period } : null);
            },
          ],
        },
      };
      return { opts, data: [xs, band(1), band(0), band(2)] as uPlot.AlignedData };
    },
    [periods, from, to, token.colorTextSecondary, token.colorBorderSecondary, token.fontFamily],
  );
  const ready = useUPlot(ref, width, build);

  return (
    <div style={{ position: 'relative' }} data-testid="status-timeline" aria-label="Status timeline">
      <div ref={ref} style={{ minHeight: HEIGHT + 4, background: ready ? undefined : token.colorFillQuaternary, borderRadius: 6 }} />
      {hover && <TimelineTooltip left={hover.left} width={width} period={hover.period} />}
    </div>
  );
}

function TimelineTooltip({ left, width, period }: { left: number; width: number; period: Period }) {
  const { token } = theme.useToken();
  const right = left > width / 2;
  return (
    <div
      role="tooltip"
      data-testid="timeline-tooltip"
      style={{
        position: 'absolute',
        bottom: HEIGHT + 8,
        ...(right ? { right: Math.max(0, width - left - 8) } : { left: left + 8 }),
        pointerEvents: 'none',
        whiteSpace: 'nowrap',
        padding: '6px 10px',
        borderRadius: 6,
        background: token.colorBgElevated,
        color: token.colorText,
        boxShadow: token.boxShadowSecondary,
        fontSize: 12,
        zIndex: 2,
      }}
    >
      <span
        style={{
          display: 'inline-block',
          width: 8,
          height: 8,
          borderRadius: 4,
          marginRight: 6,
          background: TIMELINE_COLORS[period.status],
        }}
      />
      <strong>{STATUS_WORD[period.status] ?? `Status ${period.status}`}</strong>
      {' · '}
      {formatDateTime(period.from)} – {formatDateTime(period.to)} ({formatLength(Date.parse(period.to) - Date.parse(period.from))})
    </div>
  );
}

/** The legend under a timeline: the three colours and their meaning. */
export function TimelineLegend() {
  return (
    <div style={{ display: 'flex', gap: 16, fontSize: 12, marginTop: 4 }}>
      {[1, 0, 2].map((s) => (
        <span key={s}>
          <span
            style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, marginRight: 6, background: TIMELINE_COLORS[s] }}
          />
          {STATUS_WORD[s]}
        </span>
      ))}
    </div>
  );
}

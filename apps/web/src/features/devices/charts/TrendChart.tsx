import { theme } from 'antd';
import { useCallback, useState } from 'react';
import type uPlot from 'uplot';
import { useContainerWidth } from '../../../components/charts/useContainerWidth.ts';
import { STATUS_COLORS } from '../../../lib/theme.ts';
import { scoreText } from '../history.ts';
import { useUPlot } from './useUPlot.ts';

export interface TrendDay {
  date: string;
  score: number;
}

const HEIGHT = 200;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/**
 * The daily reliability of the last 30 days against the goal line (docs/history.md "Trends"), drawn
 * by uPlot in UTC so each point sits on its own date; a day with nothing observed is a gap. Hovering
 * shows the day's score and the goal.
 */
export function TrendChart({ days, goal }: { days: TrendDay[]; goal: number }) {
  const { token } = theme.useToken();
  const [ref, width] = useContainerWidth<HTMLDivElement>();
  const [hover, setHover] = useState<{ left: number; day: TrendDay } | null>(null);

  const build = useCallback(
    (U: typeof uPlot, w: number) => {
      const xs = days.map((d) => dayOf(d.date));
      const scores = days.map((d) => (d.score < 0 ? null : d.score));
      const lowest = Math.min(goal, ...scores.filter((s): s is number => s !== null));
      const axis = {
        stroke: token.colorTextSecondary,
        grid: { stroke: token.colorBorderSecondary, width: 1 },
        ticks: { stroke: token.colorBorderSecondary },
        font: `11px ${token.fontFamily}`,
      };
      const opts: uPlot.Options = {
        width: w,
        height: HEIGHT,
        tzDate: (ts) => U.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { y: false, drag: { x: false, y: false }, points: { size: 8 } },
        scales: { x: { time: true }, y: { range: () => [Math.max(0, Math.floor(lowest - 2)), 100] } },
        axes: [
          { ...axis, size: 32 },
          { ...axis, size: 44, values: (_u, ticks) => ticks.map((v) => `${v}%`) },
        ],
        series: [
          {},
          // The link colour: the brand in light mode, a lighter teal that reads on dark.
          { label: 'Score', stroke: token.colorLink, width: 2, points: { show: true, size: 5, fill: token.colorLink }, spanGaps: false },
          { label: 'Goal', stroke: STATUS_COLORS.warning, width: 1.5, dash: [6, 4], points: { show: false } },
        ],
        hooks: {
          setCursor: [
            (u) => {
              const idx = u.cursor.idx;
              setHover(
                idx === null || idx === undefined || u.cursor.left === undefined || u.cursor.left < 0
                  ? null
                  : { left: u.cursor.left, day: days[idx] },
              );
            },
          ],
        },
      };
      return { opts, data: [xs, scores, days.map(() => goal)] as uPlot.AlignedData };
    },
    [days, goal, token.colorLink, token.colorTextSecondary, token.colorBorderSecondary, token.fontFamily],
  );
  const ready = useUPlot(ref, width, build);

  return (
    <div style={{ position: 'relative' }} data-testid="trend-chart">
      <div ref={ref} style={{ minHeight: HEIGHT + 4, background: ready ? undefined : token.colorFillQuaternary, borderRadius: 6 }} />
      {hover && (
        <div
          role="tooltip"
          data-testid="trend-tooltip"
          style={{
            position: 'absolute',
            top: 4,
            ...(hover.left > width / 2 ? { right: Math.max(0, width - hover.left + 12) } : { left: hover.left + 56 }),
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
          <div style={{ fontWeight: 600 }}>{hover.day.date}</div>
          <div>Reliability: {scoreText(hover.day.score)}</div>
          <div>Goal: {goal.toFixed(1)}%</div>
        </div>
      )}
    </div>
  );
}

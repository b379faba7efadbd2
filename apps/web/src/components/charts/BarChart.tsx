import { theme } from 'antd';
import { useState } from 'react';
import { useChartTooltip } from './ChartTooltip.tsx';
import { labelInterval, niceScale, wrapLabel } from './geometry.ts';
import { useContainerWidth } from './useContainerWidth.ts';
import { useEnterAnimation } from './useEnterAnimation.ts';

export interface BarChartProps {
  /** What the chart shows; the accessible name adds every category's value. */
  ariaLabel: string;
  /** The series' name in the tooltip. */
  seriesName: string;
  categories: readonly string[];
  /** One per category; null draws no bar (nothing observed). */
  values: readonly (number | null)[];
  height: number;
  color: string;
  barMaxWidth: number;
  /** A fixed value axis (e.g. 0-100 %); otherwise whole-number steps fitted to the data. */
  scale?: { max: number; step: number };
  format?: (value: number) => string;
  /** Category labels break between words (few, long labels); otherwise some are skipped when crowded. */
  wrapLabels?: boolean;
  roundedTop?: boolean;
}

const FONT = 11;
const LINE = 14;
const WRAP_WIDTH = 76;

/** Vertical bars with a value axis, grid lines, category labels and a hover tooltip, as one SVG. */
export function BarChart({
  ariaLabel,
  seriesName,
  categories,
  values,
  height,
  color,
  barMaxWidth,
  scale,
  format = String,
  wrapLabels = false,
  roundedTop = false,
}: BarChartProps) {
  const [container, width] = useContainerWidth<HTMLDivElement>();
  const { token } = theme.useToken();
  const tooltip = useChartTooltip(container);
  const [hovered, setHovered] = useState<number | null>(null);
  const enter = useEnterAnimation([{ transform: 'scaleY(0)' }, { transform: 'scaleY(1)' }]);

  const axis = scale
    ? { ...scale, ticks: Array.from({ length: Math.round(scale.max / scale.step) + 1 }, (_, i) => i * scale.step) }
    : niceScale(Math.max(0, ...values.map((v) => v ?? 0)));
  const labels = categories.map((c) => (wrapLabels ? wrapLabel(c, WRAP_WIDTH, FONT) : [c]));
  const lines = Math.max(1, ...labels.map((l) => l.length));
  const left = Math.max(...axis.ticks.map((t) => format(t).length)) * 6.5 + 14;
  const right = 12;
  const top = 12;
  const bottom = 10 + lines * LINE;
  const plotWidth = Math.max(0, width - left - right);
  const baseline = height - bottom;
  const y = (v: number) => baseline - (Math.min(v, axis.max) / axis.max) * (baseline - top);
  const band = categories.length ? plotWidth / categories.length : 0;
  // Dense days (a year of them) touch, rather than fade into hairlines.
  const barWidth = band < 4 ? band : Math.min(barMaxWidth, band * 0.6);
  const every = wrapLabels ? 1 : labelInterval(categories.length, plotWidth, Math.max(...categories.map((c) => c.length)) * FONT * 0.6 + 8);
  const name = `${ariaLabel}: ${categories.map((c, i) => `${c} ${values[i] == null ? 'no data' : format(values[i])}`).join(', ')}`;

  return (
    <div ref={container} style={{ position: 'relative', height }}>
      <svg role="img" aria-label={name} width="100%" height={height} fontFamily={token.fontFamily} style={{ display: 'block' }}>
        {width > 0 && (
          <>
            {axis.ticks.map((t) => (
              <g key={t}>
                <line x1={left} x2={width - right} y1={y(t)} y2={y(t)} stroke={t === 0 ? token.colorBorder : token.colorSplit} />
                <text x={left - 8} y={y(t) + 4} textAnchor="end" fontSize={FONT} fill={token.colorTextSecondary}>
                  {format(t)}
                </text>
              </g>
            ))}
            {hovered !== null && (
              <rect x={left + band * hovered} y={top} width={band} height={baseline - top} fill={token.colorFillTertiary} />
            )}
            <g ref={enter} style={{ transformOrigin: `0 ${baseline}px` }} data-part="bars">
              {values.map((v, i) =>
                v === null || v <= 0 ? null : (
                  <path
                    key={i}
                    data-bar={categories[i]}
                    d={barPath(left + band * i + (band - barWidth) / 2, y(v), barWidth, baseline - y(v), roundedTop ? 4 : 0)}
                    fill={color}
                  />
                ),
              )}
            </g>
            {labels.map((l, i) =>
              i % every === 0 ? (
                <text
                  key={i}
                  x={left + band * (i + 0.5)}
                  y={baseline + LINE + 2}
                  textAnchor="middle"
                  fontSize={FONT}
                  fill={token.colorTextSecondary}
                >
                  {l.map((line, n) => (
                    <tspan key={n} x={left + band * (i + 0.5)} dy={n === 0 ? 0 : LINE}>
                      {line}
                    </tspan>
                  ))}
                </text>
              ) : null,
            )}
            {categories.map((c, i) => (
              <rect
                key={i}
                x={left + band * i}
                y={top}
                width={band}
                height={baseline - top}
                fill="transparent"
                onPointerMove={(e) => {
                  setHovered(i);
                  tooltip.show(e, {
                    title: c,
                    rows: [{ color, name: seriesName, value: values[i] == null ? 'no data' : format(values[i]) }],
                  });
                }}
                onPointerLeave={() => {
                  setHovered(null);
                  tooltip.hide();
                }}
              />
            ))}
          </>
        )}
      </svg>
      {tooltip.element}
    </div>
  );
}

/** A bar from its top-left corner, its top corners rounded by `r` (never more than fits). */
function barPath(x: number, top: number, w: number, h: number, r: number): string {
  const k = Math.min(r, w / 2, h);
  const f = (n: number) => Math.round(n * 100) / 100;
  if (k <= 0) return `M${f(x)} ${f(top + h)}V${f(top)}H${f(x + w)}V${f(top + h)}Z`;
  return `M${f(x)} ${f(top + h)}V${f(top + k)}Q${f(x)} ${f(top)} ${f(x + k)} ${f(top)}H${f(x + w - k)}Q${f(x + w)} ${f(top)} ${f(x + w)} ${f(top + k)}V${f(top + h)}Z`;
}

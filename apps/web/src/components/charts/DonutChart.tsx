import { theme } from 'antd';
import { useState, type PointerEvent, type Ref } from 'react';
import { NARROW_QUERY, STATUS_COLORS } from '../../lib/theme.ts';
import { useMediaQuery } from '../../lib/useMediaQuery.ts';
import { useChartTooltip } from './ChartTooltip.tsx';
import { chartHeight, donutRadius, percent, ringPath, ringSlicePath, sliceAngles } from './geometry.ts';
import { useContainerWidth } from './useContainerWidth.ts';
import { useEnterAnimation } from './useEnterAnimation.ts';

/** The ring drawn when there are no devices: a ring, not two equal halves. */
export const EMPTY_RING = 'rgba(128, 128, 128, 0.18)';
/** How far a slice grows under the pointer. */
const HOVER_GROW = 3;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Online/offline donut (Company Wide Pulse, Portal Pulse) sized by the radius rule (docs/web-pages.md "Charts") for its
 * container width: the online share in the hole, the counts (offline first in mind) and the total in
 * the legend below, and a tooltip with both counts anywhere over the ring or its hole. One SVG, so `svgRef` can be
 * exported as an image as it is (see exportPng.ts).
 */
export function OnlineOfflineDonut({
  onlineCount,
  offlineCount,
  label,
  svgRef,
}: {
  onlineCount: number;
  offlineCount: number;
  label: string;
  svgRef?: Ref<SVGSVGElement>;
}) {
  const height = chartHeight(useMediaQuery(NARROW_QUERY));
  const [container, width] = useContainerWidth<HTMLDivElement>();
  const { token } = theme.useToken();
  const tooltip = useChartTooltip(container);
  const [hovered, setHovered] = useState<number | null>(null);
  const enter = useEnterAnimation([
    { opacity: 0, transform: 'scale(0.85)' },
    { opacity: 1, transform: 'scale(1)' },
  ]);

  const slices = [
    { name: 'Online', value: onlineCount, color: STATUS_COLORS.online },
    { name: 'Offline', value: offlineCount, color: STATUS_COLORS.offline },
  ];
  const total = onlineCount + offlineCount;
  const angles = sliceAngles(slices.map((s) => s.value));
  const shown = slices.filter((s) => s.value > 0).length;
  const { inner, outer } = donutRadius(width);
  const half = Math.min(width, height) / 2;
  // The ring sits a little above the middle, leaving the bottom to the legend.
  const cx = width / 2;
  const cy = height * 0.46;
  const rows = slices.map((s) => ({ color: s.color, name: s.name, value: `${count(s.value)} (${percent(s.value, total)})` }));
  const showAll = (e: PointerEvent) => total > 0 && tooltip.show(e, { title: `${label}: ${count(total)} devices`, rows });

  return (
    <div ref={container} style={{ position: 'relative', height }}>
      <svg
        ref={svgRef}
        role="img"
        aria-label={`${label}: ${onlineCount} online, ${offlineCount} offline`}
        width="100%"
        height={height}
        fontFamily={token.fontFamily}
        style={{ display: 'block', overflow: 'visible' }}
      >
        {width > 0 && (
          <>
            <g ref={enter} style={{ transformOrigin: `${cx}px ${cy}px` }} data-part="ring">
              {total === 0 ? (
                <path d={ringPath(cx, cy, inner * half, outer * half)} fill={EMPTY_RING} fillRule="evenodd" data-slice="empty" />
              ) : (
                slices.map((s, i) =>
                  s.value > 0 ? (
                    <path
                      key={s.name}
                      data-slice={s.name}
                      d={ringSlicePath(
                        cx,
                        cy,
                        inner * half,
                        outer * half + (hovered === i ? HOVER_GROW : 0),
                        angles[i].start,
                        angles[i].end,
                      )}
                      fill={s.color}
                      fillRule="evenodd"
                      // A hairline in the card's colour between the two slices.
                      stroke={shown > 1 ? token.colorBgContainer : 'none'}
                      strokeWidth={1.5}
                      onPointerMove={(e) => {
                        setHovered(i);
                        tooltip.show(e, {
                          title: label,
                          rows: [{ color: s.color, name: s.name, value: `${count(s.value)} (${percent(s.value, total)})` }],
                        });
                      }}
                      onPointerLeave={() => {
                        setHovered(null);
                        tooltip.hide();
                      }}
                    />
                  ) : null,
                )
              )}
            </g>
            {/* The hole: hovering it names both counts. */}
            <circle
              cx={cx}
              cy={cy}
              r={Math.max(0, inner * half - 1)}
              fill="transparent"
              data-part="hole"
              onPointerMove={showAll}
              onPointerLeave={() => tooltip.hide()}
            />
            <text
              x={cx}
              y={cy + 2}
              textAnchor="middle"
              fontSize={22}
              fontWeight={600}
              fill={token.colorText}
              data-part="share"
              pointerEvents="none"
            >
              {total === 0 ? '0' : percent(onlineCount, total)}
            </text>
            <text x={cx} y={cy + 19} textAnchor="middle" fontSize={12} fill={token.colorTextSecondary} pointerEvents="none">
              {total === 0 ? 'devices' : 'online'}
            </text>
            <text x={cx} y={height - 4} textAnchor="middle" fontSize={12} fill={token.colorText} data-part="legend">
              {slices.map((s, i) => (
                <tspan key={s.name} dx={i === 0 ? 0 : 14}>
                  <tspan fill={s.color}>●</tspan> {s.name} <tspan fontWeight={600}>{count(s.value)}</tspan>
                </tspan>
              ))}
              <tspan dx={14} fill={token.colorTextSecondary}>
                of <tspan data-part="total">{count(total)}</tspan>
              </tspan>
            </text>
          </>
        )}
      </svg>
      {tooltip.element}
    </div>
  );
}

import { theme } from 'antd';
import { BRAND } from '../../lib/theme.ts';
import { arcPath, gaugeMax, wrapLabel } from './geometry.ts';
import { useContainerWidth } from './useContainerWidth.ts';
import { useEnterAnimation } from './useEnterAnimation.ts';

/** The gauge's arc: 240 degrees through the top, from 8 o'clock to 4 o'clock. */
const START = (-2 * Math.PI) / 3;
const END = (2 * Math.PI) / 3;
const TRACK = 12;

/** A radial gauge of a count (cases completed this quarter) on a scale that grows with it. */
export function CountGauge({ value, label, height, ariaLabel }: { value: number; label: string; height: number; ariaLabel: string }) {
  const [container, width] = useContainerWidth<HTMLDivElement>();
  const { token } = theme.useToken();
  // pathLength 1: the dash offset runs from 1 (nothing drawn) to 0 (the whole arc).
  const enter = useEnterAnimation([{ strokeDashoffset: 1 }, { strokeDashoffset: 0 }]);
  const max = gaugeMax(value);
  const radius = (Math.min(width, height) / 2) * 0.9 - TRACK / 2;
  const cx = width / 2;
  const cy = height / 2;
  const end = START + (END - START) * Math.min(1, value / max);

  return (
    <div ref={container} style={{ height }}>
      <svg role="img" aria-label={ariaLabel} width="100%" height={height} fontFamily={token.fontFamily} style={{ display: 'block' }}>
        {width > 0 && radius > 0 && (
          <>
            <path
              d={arcPath(cx, cy, radius, START, END)}
              fill="none"
              stroke={token.colorFillSecondary}
              strokeWidth={TRACK}
              strokeLinecap="round"
            />
            {value > 0 && (
              <path
                ref={enter}
                data-part="progress"
                d={arcPath(cx, cy, radius, START, end)}
                pathLength={1}
                strokeDasharray="1 1"
                fill="none"
                stroke={BRAND}
                strokeWidth={TRACK}
                strokeLinecap="round"
              />
            )}
            <text x={cx} y={cy + 4} textAnchor="middle" fontSize={28} fontWeight={700} fill={token.colorText} data-part="value">
              {value.toLocaleString('en-US')}
            </text>
            {/* Below the arc's two ends; a narrow column (a phone's two-column card) breaks it rather than clip it. */}
            <text x={cx} y={cy + radius * 0.5 + 20} textAnchor="middle" fontSize={12} fill={token.colorTextSecondary}>
              {wrapLabel(label, width - 16, 12).map((line, n) => (
                <tspan key={n} x={cx} dy={n === 0 ? 0 : 15}>
                  {line}
                </tspan>
              ))}
            </text>
            <title>{`${label}: ${value}`}</title>
          </>
        )}
      </svg>
    </div>
  );
}

import { theme } from 'antd';
import { useCallback, useState, type PointerEvent, type RefObject } from 'react';

export interface TooltipContent {
  title?: string;
  rows: { color: string; name: string; value: string }[];
}

interface Shown {
  x: number;
  y: number;
  content: TooltipContent;
}

/**
 * A hover tooltip inside a chart's container (which is `position: relative`): follows the
 * pointer, stays within the container's width, never takes pointer events.
 */
export function useChartTooltip(container: RefObject<HTMLElement | null>) {
  const [shown, setShown] = useState<Shown | null>(null);
  const show = useCallback(
    (event: PointerEvent, content: TooltipContent) => {
      const box = container.current?.getBoundingClientRect();
      if (!box) return;
      setShown({ x: event.clientX - box.left, y: event.clientY - box.top, content });
    },
    [container],
  );
  const hide = useCallback(() => setShown(null), []);
  return { show, hide, element: shown && <TooltipBox {...shown} containerWidth={container.current?.clientWidth ?? 0} /> };
}

function TooltipBox({ x, y, content, containerWidth }: Shown & { containerWidth: number }) {
  const { token } = theme.useToken();
  // Right of the pointer, or left of it past the middle, so it stays inside the card.
  const left = x > containerWidth / 2 ? undefined : x + 14;
  const right = x > containerWidth / 2 ? containerWidth - x + 14 : undefined;
  return (
    <div
      aria-hidden
      style={{
        position: 'absolute',
        top: Math.max(0, y - 12),
        left,
        right,
        pointerEvents: 'none',
        zIndex: 1,
        whiteSpace: 'nowrap',
        padding: '6px 10px',
        borderRadius: token.borderRadius,
        background: token.colorBgElevated,
        boxShadow: token.boxShadowSecondary,
        color: token.colorText,
        fontSize: 12,
        lineHeight: '20px',
      }}
    >
      {content.title && <div style={{ fontWeight: 600 }}>{content.title}</div>}
      {content.rows.map((r) => (
        <div key={r.name} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <span style={{ width: 8, height: 8, borderRadius: 4, background: r.color, flex: 'none' }} />
          <span>{r.name}</span>
          <span style={{ marginLeft: 'auto', paddingLeft: 12, fontWeight: 600 }}>{r.value}</span>
        </div>
      ))}
    </div>
  );
}

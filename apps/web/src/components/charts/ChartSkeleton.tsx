import { Skeleton } from 'antd';

/** The space of a chart while its data loads: exactly its height, so nothing moves after. */
export function ChartSkeleton({ height }: { height: number }) {
  return (
    <div style={{ height }}>
      <Skeleton.Node active style={{ width: '100%', height }} />
    </div>
  );
}

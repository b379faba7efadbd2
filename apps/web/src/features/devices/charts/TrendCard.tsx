import { Card, Skeleton, theme } from 'antd';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { TableState } from '../../../components/TableStates.tsx';
import { scoreText } from '../history.ts';
import { TrendChart, type TrendDay } from './TrendChart.tsx';

interface Props {
  title: string;
  result: {
    data?: { data: { goal: number; days: TrendDay[] } };
    isLoading: boolean;
    error?: FetchBaseQueryError | SerializedError;
    refetch: () => void;
  };
}

/** A card with the daily reliability of the last 30 days against the goal (Pulse and the portal page). */
export function TrendCard({ title, result }: Props) {
  const { token } = theme.useToken();
  const trend = result.data?.data;
  const today = trend?.days.at(-1);
  return (
    <Card
      title={title}
      data-testid="reliability-trend"
      extra={trend && <span style={{ color: token.colorTextSecondary }}>Goal {trend.goal.toFixed(1)}%</span>}
    >
      <TableState isLoading={false} error={result.error} onRetry={result.refetch}>
        {result.isLoading || !trend ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : (
          <>
            <TrendChart days={trend.days} goal={trend.goal} />
            <div style={{ fontSize: 12, color: token.colorTextSecondary, marginTop: 4 }}>
              Today so far: {scoreText(today?.score ?? -1)} · {trend.days.filter((d) => d.score >= 0 && d.score < trend.goal).length} of{' '}
              {trend.days.length} days below the goal
            </div>
          </>
        )}
      </TableState>
    </Card>
  );
}

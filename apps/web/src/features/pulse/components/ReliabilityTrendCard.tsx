import { TrendCard, useReliabilityTrendQuery } from '../../devices/index.ts';

/** Pulse: the company's daily reliability over the last 30 days against the goal (docs/history.md "Trends"). */
export function ReliabilityTrendCard() {
  return <TrendCard title="Reliability Trend" result={useReliabilityTrendQuery()} />;
}

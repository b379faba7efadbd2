import { TrendCard, useCustomerReliabilityTrendQuery } from '../../devices/index.ts';

/** Portal page: the portal's daily reliability over the last 30 days against the goal (docs/history.md "Trends"). */
export function PortalTrendCard({ customerId }: { customerId: number }) {
  return <TrendCard title="Reliability Trend" result={useCustomerReliabilityTrendQuery(customerId)} />;
}

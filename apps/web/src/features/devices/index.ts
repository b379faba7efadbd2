/** What other features use of devices: the reliability trend chart and its queries (docs/history.md). */
export { useCustomerReliabilityTrendQuery, useReliabilityTrendQuery } from './api.ts';
export { TrendCard } from './charts/TrendCard.tsx';

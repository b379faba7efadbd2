import { Card, Skeleton } from 'antd';
import { OnlineOfflineDonut } from '../../../components/charts/DonutChart.tsx';
import { EmptyState, ErrorState } from '../../../components/TableStates.tsx';
import { ReliabilityPanel } from '../../../components/ReliabilityPanel.tsx';
import { usePortalStatsQuery } from '../api.ts';

/** Portal Pulse (online/offline donut) and the portal's reliability against the tenant's goal. */
export function PortalPulseCard({ customerId }: { customerId: number }) {
  const { data, isLoading, error, refetch } = usePortalStatsQuery(customerId);
  const stats = data?.data;
  return (
    <>
      <Card title="Portal Pulse" style={{ marginBottom: 16 }}>
        {error ? (
          <ErrorState error={error} onRetry={refetch} />
        ) : isLoading || !stats ? (
          <Skeleton active />
        ) : stats.onlineCount + stats.offlineCount === 0 ? (
          <EmptyState text="No devices reported yet. They appear here once the portal's webhook reports them." />
        ) : (
          <OnlineOfflineDonut onlineCount={stats.onlineCount} offlineCount={stats.offlineCount} label="Portal Pulse" />
        )}
      </Card>
      {stats && <ReliabilityPanel score={stats.reliabilityScore} goal={stats.goalScore} />}
    </>
  );
}

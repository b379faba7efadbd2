import { ALERT_TYPES } from '@vigil/contracts';
import { Badge, Empty, List, Spin, theme } from 'antd';
import { StrongText } from '../../components/Text.tsx';
import type { RecentAlert } from './api.ts';

/** The open 'Alarms' dropdown: the five most recent alerts, or 'No alerts'. Loaded on first open. */
export default function AlarmsPanel({ rows, loading }: { rows: readonly RecentAlert[]; loading: boolean }) {
  const { token } = theme.useToken();
  return (
    <>
      <StrongText style={{ display: 'block', padding: '4px 8px' }}>Recent alerts</StrongText>
      {loading ? (
        <div style={{ padding: 24, textAlign: 'center' }}>
          <Spin />
        </div>
      ) : rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No alerts" />
      ) : (
        <List
          size="small"
          dataSource={[...rows]}
          rowKey={(r) => `${r.customerName}-${r.alertType}-${r.offlineCount}`}
          renderItem={(r) => (
            <List.Item>
              <List.Item.Meta title={r.customerName} description={ALERT_TYPES[r.alertType] ?? 'Unknown'} />
              <Badge count={r.offlineCount} showZero overflowCount={9999} color={token.colorError} title="Offline devices" />
            </List.Item>
          )}
        />
      )}
    </>
  );
}

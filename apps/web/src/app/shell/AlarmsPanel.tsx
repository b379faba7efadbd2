import { ALERT_STATUS, ALERT_TYPE, ALERT_TYPES } from '@vigil/contracts';
import { Badge, Empty, List, Spin, theme } from 'antd';
import { StrongText } from '../../components/Text.tsx';
import type { RecentAlert } from './api.ts';

/** What the list answers beyond RecentAlert's fields (docs/alerts.md). */
type AlarmRow = RecentAlert & { customerId?: number; status?: number };

/**
 * One row per portal and alert type, the newest: a portal has one open Device Offline alert at a time
 * (docs/alerts.md), and its resolved ones do not repeat it in the dropdown.
 */
export function alarmRows(rows: readonly AlarmRow[]): AlarmRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.customerId ?? r.customerName}:${r.alertType}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const statusWord = (status?: number) => (status === ALERT_STATUS.ok ? 'Resolved' : status === undefined ? '' : 'Open');

/**
 * The open 'Alarms' dropdown: the five most recent alerts, one row per portal and type, or 'No alerts'.
 * A count shows only when there is one: never '0 devices'. Loaded on first open.
 */
export default function AlarmsPanel({ rows, loading }: { rows: readonly AlarmRow[]; loading: boolean }) {
  const { token } = theme.useToken();
  const shown = alarmRows(rows);
  return (
    <>
      <StrongText style={{ display: 'block', padding: '4px 8px' }}>Recent alerts</StrongText>
      {loading ? (
        <div style={{ padding: 24, textAlign: 'center' }}>
          <Spin />
        </div>
      ) : shown.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No alerts" />
      ) : (
        <List
          size="small"
          dataSource={shown}
          rowKey={(r) => r.id ?? `${r.customerId ?? r.customerName}:${r.alertType}`}
          renderItem={(r) => {
            const word = statusWord(r.status);
            const type = ALERT_TYPES[r.alertType] ?? 'Unknown';
            return (
              <List.Item>
                <List.Item.Meta title={r.customerName} description={word ? `${type} · ${word}` : type} />
                {r.offlineCount > 0 && (
                  <Badge
                    count={r.offlineCount}
                    overflowCount={9999}
                    color={r.status === ALERT_STATUS.ok ? token.colorTextQuaternary : token.colorError}
                    title={r.alertType === ALERT_TYPE.deviceOffline ? 'Offline devices' : 'Devices'}
                  />
                )}
              </List.Item>
            );
          }}
        />
      )}
    </>
  );
}

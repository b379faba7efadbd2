import { BellOutlined } from '@ant-design/icons';
import { ALERT_TYPES } from '@vigil/contracts';
import { Badge, Button, Dropdown, Empty, List, Spin, Typography, theme } from 'antd';
import { useState } from 'react';
import { useLazyRecentAlertsQuery } from './api.ts';

/**
 * 'Alarms' (spec §2): fetches the five most recent alerts every time it opens;
 * no pagination; 'No alerts' when empty or on failure (logged).
 */
export function AlarmsDropdown() {
  const [open, setOpen] = useState(false);
  const [load, { data, isFetching, isError }] = useLazyRecentAlertsQuery();
  const { token } = theme.useToken();
  const rows = isError ? [] : (data ?? []);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next)
      void load().then((r) => {
        if (r.error) console.warn('alerts fetch failed', r.error);
      });
  };

  return (
    <Dropdown
      open={open}
      onOpenChange={onOpenChange}
      trigger={['click']}
      placement="bottomRight"
      popupRender={() => (
        <div
          role="dialog"
          aria-label="Recent alerts"
          style={{ minWidth: 400, maxHeight: 400, overflowY: 'auto', background: token.colorBgElevated, borderRadius: token.borderRadiusLG, boxShadow: token.boxShadowSecondary, padding: 8 }}
        >
          <Typography.Text strong style={{ display: 'block', padding: '4px 8px' }}>
            Recent alerts
          </Typography.Text>
          {isFetching ? (
            <div style={{ padding: 24, textAlign: 'center' }}>
              <Spin />
            </div>
          ) : rows.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No alerts" />
          ) : (
            <List
              size="small"
              dataSource={rows}
              rowKey={(r) => `${r.customerName}-${r.alertType}-${r.offlineCount}`}
              renderItem={(r) => (
                <List.Item>
                  <List.Item.Meta title={r.customerName} description={ALERT_TYPES[r.alertType] ?? 'Unknown'} />
                  <Badge count={r.offlineCount} showZero overflowCount={9999} color={token.colorError} title="Offline devices" />
                </List.Item>
              )}
            />
          )}
        </div>
      )}
    >
      <Button icon={<BellOutlined />} size="large" aria-haspopup="dialog">
        Alarms
      </Button>
    </Dropdown>
  );
}

import { BellOutlined } from '@ant-design/icons';
import { Button, Dropdown, Spin, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useLazyRecentAlertsQuery } from './api.ts';

/** The list's code (List, Badge, Empty) loads when the dropdown first opens, not with the shell. */
const AlarmsPanel = lazy(() => import('./AlarmsPanel.tsx'));

/**
 * 'Alarms' (docs/web.md "Shell"): fetches the five most recent alerts every time it opens;
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
          style={{
            minWidth: 400,
            maxHeight: 400,
            overflowY: 'auto',
            background: token.colorBgElevated,
            borderRadius: token.borderRadiusLG,
            boxShadow: token.boxShadowSecondary,
            padding: 8,
          }}
        >
          <Suspense
            fallback={
              <div style={{ padding: 24, textAlign: 'center' }}>
                <Spin />
              </div>
            }
          >
            <AlarmsPanel rows={rows} loading={isFetching} />
          </Suspense>
        </div>
      )}
    >
      <Button icon={<BellOutlined />} size="large" aria-haspopup="dialog">
        Alarms
      </Button>
    </Dropdown>
  );
}

import { Alert, Button, Space } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../lib/state/hooks.ts';
import { alertHidden } from '../../lib/state/uiSlices.ts';

export const BANNER_HIDE_MS = 3000;

/** The global alert banner (docs/web.md "Shell"): shown while isShowAlert, hides after 3 s or on close. */
export function GlobalBanner() {
  const { isShowAlert, alarmContent, alertId } = useAppSelector((s) => s.pageInfo);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  useEffect(() => {
    if (!isShowAlert) return;
    const timer = setTimeout(() => dispatch(alertHidden()), BANNER_HIDE_MS);
    return () => clearTimeout(timer);
  }, [isShowAlert, alarmContent, dispatch]);
  if (!isShowAlert) return null;
  const hide = () => dispatch(alertHidden());
  return (
    <Alert
      banner
      type="error"
      showIcon
      title={alarmContent}
      closable={{ onClose: hide, 'aria-label': 'Close alert' }}
      action={
        <Space>
          <Button
            size="small"
            danger
            onClick={() => {
              hide();
              void navigate(alertId ? `/dashboards/alerts/${alertId}` : '/dashboards/alerts');
            }}
          >
            View Event
          </Button>
          <Button size="small" onClick={hide}>
            Dismiss
          </Button>
        </Space>
      }
    />
  );
}

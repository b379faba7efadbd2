import { notification } from 'antd';
import { useEffect } from 'react';
import { setNotifier } from '../lib/notify.ts';

/** Hands a themed notification instance (inside the ConfigProvider) to `notify`. Loaded lazily by App. */
export default function NotificationHost() {
  const [api, holder] = notification.useNotification({ placement: 'topRight' });
  useEffect(() => {
    setNotifier(api);
    return () => setNotifier(undefined);
  }, [api]);
  return holder;
}

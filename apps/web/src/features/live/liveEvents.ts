import { ALERT_TYPE, ALERT_TYPES } from '@vigil/contracts';
import { LIVE_EVENTS_STREAM_PATH } from '@vigil/contracts/routes';

/** What the stream's messages change in the app (see LiveEventsConnector). */
export interface LiveAlert {
  alertId: number;
  customerId: number;
  customerName: string;
  alertType: number;
  offlineCount: number;
}

export const streamUrl = (ticket: string) => `${LIVE_EVENTS_STREAM_PATH}?ticket=${encodeURIComponent(ticket)}`;

/** The banner text of a newly opened alert. */
export function alertBannerText(a: Pick<LiveAlert, 'customerName' | 'alertType' | 'offlineCount'>): string {
  if (a.alertType === ALERT_TYPE.deviceOffline)
    return `${a.customerName}: ${a.offlineCount} device${a.offlineCount === 1 ? '' : 's'} offline`;
  return `${a.customerName}: ${ALERT_TYPES[a.alertType] ?? 'Alert'}`;
}

/** Reconnect delay after the n-th consecutive failure: 1 s, 2 s, 4 s ... at most 30 s. */
export const reconnectDelay = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));

/**
 * Calls `fn` at most once per `ms`, always with a trailing call, so a burst of device
 * changes refetches the affected queries once instead of once per message.
 */
export function throttle(fn: () => void, ms: number): { call: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;
  return {
    call() {
      if (timer) return;
      const wait = Math.max(0, last + ms - Date.now());
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        fn();
      }, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

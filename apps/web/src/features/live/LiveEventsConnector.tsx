import { useEffect } from 'react';
import { ALERT_TYPE } from '@vigil/contracts';
import { useAppDispatch, useAuth } from '../../lib/state/hooks.ts';
import { alertShown } from '../../lib/state/uiSlices.ts';
import { api } from '../../lib/api/apiSlice.ts';
import { useStreamTicketMutation } from './api.ts';
import { alertBannerText, reconnectDelay, streamUrl, throttle, type LiveAlert } from './liveEvents.ts';

/** How often, at most, a burst of device changes refetches the live queries. */
const REFRESH_MS = 750;

/**
 * The live-events connection of the dashboard (docs/decisions.md 28): a ticket from
 * POST /live-events/ticket, then an EventSource on the stream; on error a fresh ticket.
 * Device changes refetch what shows them (live events, counts, donuts, device tables:
 * RTK Query invalidation, no reload); a new offline alert raises the global banner.
 */
export function LiveEventsConnector() {
  const dispatch = useAppDispatch();
  const { accessTaken, tenantId } = useAuth();
  const [getTicket] = useStreamTicketMutation();
  const signedIn = Boolean(accessTaken);

  useEffect(() => {
    if (!signedIn) return;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let connections = 0;
    let stopped = false;
    const refresh = throttle(() => {
      dispatch(api.util.invalidateTags(['Stats', 'Device', 'Portal', 'Alert']));
    }, REFRESH_MS);

    const scheduleReconnect = () => {
      source?.close();
      source = undefined;
      if (stopped) return;
      failures += 1;
      retry = setTimeout(() => void connect(), reconnectDelay(failures));
    };

    const connect = async () => {
      const result = await getTicket();
      if (stopped) return;
      const ticket = 'data' in result ? result.data?.data.ticket : undefined;
      if (!ticket) return scheduleReconnect();
      source = new EventSource(streamUrl(ticket));
      source.addEventListener('open', () => {
        failures = 0;
        connections += 1;
      });
      // The first snapshot matches what the page just loaded; after a reconnect it may not
      // (changes were missed while disconnected), so then everything live is refetched.
      source.addEventListener('snapshot', () => {
        if (connections > 1) refresh.call();
      });
      source.addEventListener('devices', () => refresh.call());
      source.addEventListener('live-events', () => refresh.call());
      source.addEventListener('alert', (event) => {
        try {
          const alert = JSON.parse((event as MessageEvent<string>).data) as LiveAlert;
          // Never '0 devices offline': an alert holding no offline device raises no banner.
          if (alert.alertType === ALERT_TYPE.deviceOffline && alert.offlineCount > 0)
            dispatch(alertShown({ alarmContent: alertBannerText(alert), alertId: alert.alertId }));
        } catch {
          /* a malformed message changes nothing */
        }
        refresh.call();
      });
      // EventSource would retry with the same (spent) ticket: take a fresh one instead.
      source.addEventListener('error', scheduleReconnect);
    };

    void connect();
    return () => {
      stopped = true;
      refresh.cancel();
      if (retry) clearTimeout(retry);
      source?.close();
    };
  }, [signedIn, tenantId, dispatch, getTicket]);

  return null;
}

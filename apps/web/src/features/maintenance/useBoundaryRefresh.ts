import { useEffect } from 'react';
import type { MaintenanceWindow } from '@vigil/contracts';
import { useAppDispatch } from '../../lib/state/hooks.ts';
import { maintenanceApi } from './api.ts';

/** How long after a boundary the page asks again: the server's maintenance job applies windows every 5 s. */
export const BOUNDARY_SLACK_MS = 6_000;
/** Timers further away than this are not set (a browser clamps long timeouts; the page is reloaded by then). */
const LONGEST_WAIT_MS = 24 * 3_600_000;

/**
 * The next instant a listed window starts or ends (its occurrence in force ends, the next one starts),
 * after `now`; undefined when there is none.
 */
export function nextBoundary(windows: readonly MaintenanceWindow[], now: number): number | undefined {
  let next: number | undefined;
  for (const w of windows) {
    const at = Date.parse((w.inForce ? w.nextEndsAt : w.nextStartsAt) ?? '');
    if (Number.isFinite(at) && at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}

/**
 * Refreshes the windows and the device rows when a listed window starts or ends while the page is open
 * (docs/web-pages.md "Maintenance windows"): "Scheduled" becomes "In progress" and the devices' dots turn
 * blue without a reload. A live `devices` event may already have refreshed the rows; this covers the
 * list's own state and a quiet portal.
 */
export function useBoundaryRefresh(windows: readonly MaintenanceWindow[]): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const now = Date.now();
    const at = nextBoundary(windows, now);
    if (at === undefined || at - now > LONGEST_WAIT_MS) return;
    const timer = setTimeout(
      () => dispatch(maintenanceApi.util.invalidateTags(['Maintenance', 'Device', 'Stats'])),
      at - now + BOUNDARY_SLACK_MS,
    );
    return () => clearTimeout(timer);
  }, [windows, dispatch]);
}

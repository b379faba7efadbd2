import { createOfflineAlertsTrigger, offlineAlertsJob } from '../../jobs/offline-alerts.ts';
import { licenseScanJob } from '../../jobs/license-scan.ts';
import { scheduleJobs } from '../../jobs/scheduler.ts';
import { TOPICS, type DeviceStatusEvent } from '../../events/topics.ts';
import type { StartupTask } from '../startup.ts';

/**
 * At start: the offline alert rules every 5 s and after each device status
 * change, and the license renewal scan. Tests turn the timers off (deps.jobs) and
 * drive ticks with runTickOnce; the status subscription stays so it can be tested.
 */
export const operationsJobsStartup: StartupTask = async (deps) => {
  const stopTimers = scheduleJobs(deps, [offlineAlertsJob, licenseScanJob]);
  const trigger = createOfflineAlertsTrigger(deps);
  const unsubscribe = deps.bus.subscribe(TOPICS.deviceStatus, (event) => {
    const change = event as DeviceStatusEvent;
    if ((change.offline?.length ?? 0) > 0 || (change.online?.length ?? 0) > 0) trigger.fire();
  });
  return async () => {
    unsubscribe();
    trigger.stop();
    await trigger.idle();
    await stopTimers();
  };
};

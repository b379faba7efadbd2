import { TOPICS, type DeviceStatusEvent } from '../events/topics.ts';
import type { StartupTask } from '../startup.ts';
import { createOfflineAlertsTrigger } from './offline-alerts.job.ts';

/**
 * At start: the offline alert rules soon after each device status change (their timer is in the
 * registry, registry.ts). Tests turn the timers off (deps.jobs) and drive ticks with runTickOnce;
 * the status subscription stays so it can be tested. The returned function unsubscribes and waits
 * for a pending run.
 */
export const offlineAlertsTriggerStartup: StartupTask = (deps) => {
  const trigger = createOfflineAlertsTrigger(deps);
  const unsubscribe = deps.bus.subscribe(TOPICS.deviceStatus, (event) => {
    const change = event as DeviceStatusEvent;
    if ((change.offline?.length ?? 0) > 0 || (change.online?.length ?? 0) > 0) trigger.fire();
  });
  return Promise.resolve(async () => {
    unsubscribe();
    trigger.stop();
    await trigger.idle();
  });
};

import type { AppDeps } from '../deps.ts';
import { announce, sendDue } from '../modules/notifications/index.ts';
import type { Job } from './scheduler.ts';

/**
 * Notifications (docs/notifications.md): every 2 s, store the announcements due (alerts open past a
 * channel's delay, resolved, or due a repeat) as deliveries, then send what is due. Each tick runs in
 * one process (job_runs claim); announcing is idempotent anyway (a unique key per channel, alert,
 * event and repeat). Every process also sends due deliveries each second (the module's pump).
 */
export const notificationAnnounceJob: Job = {
  name: 'notification-announce',
  everyMs: 2_000,
  run: async (deps: AppDeps) => {
    const added = await announce(deps, deps.clock.now());
    if (added > 0) await sendDue(deps);
  },
};

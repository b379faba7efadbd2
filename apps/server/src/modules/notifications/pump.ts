import type { AppDeps } from '../../deps.ts';
import { TOPICS } from '../../events/topics.ts';
import { announce, sendDue } from './deliveries.service.ts';

/** How often each process looks for due deliveries (retries, and announcements another process stored). */
export const SEND_POLL_MS = 1_000;
/** After an alert opens, announce this soon (channels with no delay), a burst of openings costing one round. */
const WAKE_DELAY_MS = 250;

/**
 * The sender of this process: every second it sends what is due (claims keep two processes off the
 * same delivery), and soon after an alert opens it announces and sends at once, so a channel without
 * delay speaks within a second. Errors (the database away) are logged and the next round tries again.
 */
export function startDeliveryPump(deps: AppDeps): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  let wake: NodeJS.Timeout | undefined;
  const round = (withAnnounce: boolean) => {
    if (running || stopped) return;
    running = (async () => {
      if (withAnnounce) await announce(deps, deps.clock.now());
      while (!stopped && (await sendDue(deps)) > 0);
    })()
      .catch((err) => deps.log.warn({ err }, 'notification round failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(() => round(false), SEND_POLL_MS);
  const unsubscribe = deps.bus.subscribe(TOPICS.alertOpened, () => {
    if (wake || stopped) return;
    wake = setTimeout(() => {
      wake = undefined;
      round(true);
    }, WAKE_DELAY_MS);
  });
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (wake) clearTimeout(wake);
      unsubscribe();
      await running;
    },
  };
}

import type { AppDeps } from '../deps.ts';
import { applyOfflineAlertRules } from '../modules/alerts/index.ts';
import { runTickOnce, type Job } from './scheduler.ts';

/**
 * Device Offline alerts (docs/decisions.md 29): every 5 s, and soon after each device
 * status change, open alerts for uncovered offline devices and resolve alerts
 * whose devices are all back. Each tick runs in one process only (job_runs claim);
 * the rules also take an advisory lock, so overlapping ticks never double-open.
 */
export const offlineAlertsJob: Job = {
  name: 'offline-alerts',
  everyMs: 5_000,
  run: async (deps) => {
    await applyOfflineAlertRules(deps, deps.clock.now());
  },
};

/** Delay between a device status event and the rule run, so a burst of webhooks costs one run. */
export const TRIGGER_DELAY_MS = 250;

/**
 * Runs the offline rules shortly after device status changes, through the same
 * tick claim as the timer: with several processes (each receives the event) only
 * the one that claims the current tick runs; if the timer already ran this tick,
 * the next tick (at most 5 s later) picks the change up.
 */
export function createOfflineAlertsTrigger(
  deps: AppDeps,
  delayMs = TRIGGER_DELAY_MS,
): { fire(): void; idle(): Promise<void>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  return {
    fire() {
      if (stopped || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        running = running
          .then(() => runTickOnce(deps, offlineAlertsJob))
          .catch((err) => deps.log.error({ err, job: offlineAlertsJob.name }, 'offline alert trigger failed'));
      }, delayMs);
    },
    /** Resolves when no trigger is pending or running (tests, shutdown). */
    async idle() {
      while (timer) await new Promise((r) => setTimeout(r, delayMs));
      await running;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

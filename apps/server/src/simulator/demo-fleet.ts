import { reportOf, stepFleet, type SimDevice } from './fleet.ts';
import { emptyStats, sendAll, type SendStats } from './sender.ts';
import { devicesReported, signWebhook, webhookUrlOf } from './signing.ts';

export interface SimPortal {
  portalId: number;
  secret: string;
  fleet: SimDevice[];
}

export interface FleetSimulatorOptions {
  url: string;
  portals: SimPortal[];
  /** Every online device reports at least this often (keep it under the tenant's heartbeat timeout). */
  heartbeatMs: number;
  /** How often the fleet advances (default 5 s). */
  tickMs?: number;
  now?: () => Date;
  onError?: (err: unknown) => void;
}

export interface RunningSimulator {
  stats: SendStats;
  /** Advances every fleet once and sends what is due (the timer calls this; tests may too). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps fleets alive through real signed webhooks: devices flap (bad ones more), outages
 * end after 1-10 minutes, and online devices send heartbeats so the offline sweep only
 * catches real silence. One tick at a time; a slow server delays ticks, never piles them up.
 */
export function startFleetSimulator(opts: FleetSimulatorOptions): RunningSimulator {
  const tickMs = opts.tickMs ?? 5_000;
  const now = opts.now ?? (() => new Date());
  const stats = emptyStats();
  let last = now().getTime();
  let running: Promise<void> | undefined;
  let stopped = false;

  const tick = async () => {
    const at = now();
    const elapsed = at.getTime() - last;
    last = at.getTime();
    const jobs = opts.portals.flatMap((portal) => {
      const due = stepFleet(portal.fleet, at.getTime(), elapsed, opts.heartbeatMs);
      const chunks: SimDevice[][] = [];
      for (let i = 0; i < due.length; i += 1000) chunks.push(due.slice(i, i + 1000));
      return chunks.map((chunk) => () => ({
        url: webhookUrlOf(opts.url, portal.portalId),
        message: signWebhook(portal.secret, devicesReported(chunk.map((d) => reportOf(d, at))), { timestamp: new Date() }),
        deviceCount: chunk.length,
      }));
    });
    await sendAll(jobs, 4, stats);
  };

  const timer = setInterval(() => {
    if (running || stopped) return;
    running = tick()
      .catch((err) => opts.onError?.(err))
      .finally(() => (running = undefined));
  }, tickMs);
  timer.unref();

  return {
    stats,
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

import { DEVICE_STATUS } from '@vigil/contracts';
import { createFleet, reportOf, type SimDevice } from './fleet.ts';
import { emptyStats, postWebhook, type SendStats } from './sender.ts';
import { devicesReported, signWebhook, webhookUrlOf } from './signing.ts';

export interface LoadOptions {
  /** Base URL of any Vigil instance, e.g. http://127.0.0.1:3000 */
  url: string;
  portalId: number;
  /** The portal's `whsec_` webhook secret. */
  secret: string;
  /** Size of the simulated fleet. */
  devices: number;
  /** Device reports per second (messages per second = rate / batch). */
  rate: number;
  /** Devices per message (1..5000; default 100). */
  batch?: number;
  /** Seconds to run; the run stops by itself then. */
  durationSec: number;
  /** Requests in flight at most (default 16). */
  concurrency?: number;
  /** Chance that a report flips its device's status (default 0.01), so state changes are exercised. */
  flipChance?: number;
  /** externalId prefix (default `sim`). */
  prefix?: string;
  /** Called about once a second with the stats so far. */
  onProgress?: (stats: SendStats, elapsedSec: number) => void;
  signal?: AbortSignal;
}

/**
 * Drives one portal's webhook at a steady rate: devices report round-robin in batches,
 * signed per Standard Webhooks, with bounded concurrency. Messages that cannot start
 * because every slot is busy wait (the run reports the achieved rate, not the asked one).
 */
export async function runLoad(opts: LoadOptions): Promise<SendStats & { elapsedSec: number }> {
  const batch = Math.min(5000, Math.max(1, opts.batch ?? 100));
  const concurrency = Math.max(1, opts.concurrency ?? 16);
  const flipChance = opts.flipChance ?? 0.01;
  const fleet = createFleet(opts.devices, { prefix: opts.prefix });
  const url = webhookUrlOf(opts.url, opts.portalId);
  const stats = emptyStats();
  const started = performance.now();
  const endAt = started + opts.durationSec * 1000;
  const messagesPerSec = opts.rate / batch;
  let cursor = 0;
  let dispatched = 0;
  let inFlight = 0;
  let lastProgress = started;

  const nextBatch = (): SimDevice[] => {
    const picked: SimDevice[] = [];
    for (let i = 0; i < Math.min(batch, fleet.length); i++) {
      const d = fleet[cursor++ % fleet.length];
      if (Math.random() < flipChance) d.status = d.status === DEVICE_STATUS.online ? DEVICE_STATUS.offline : DEVICE_STATUS.online;
      picked.push(d);
    }
    return picked;
  };

  const inFlightDone = new Set<Promise<unknown>>();
  while (performance.now() < endAt && !opts.signal?.aborted) {
    const now = performance.now();
    const owed = Math.floor(((now - started) / 1000) * messagesPerSec) + 1 - dispatched;
    for (let i = 0; i < owed && inFlight < concurrency; i++) {
      const devices = nextBatch();
      const message = signWebhook(opts.secret, devicesReported(devices.map((d) => reportOf(d, new Date()))));
      dispatched += 1;
      inFlight += 1;
      const p: Promise<unknown> = postWebhook(url, message, devices.length, stats).finally(() => {
        inFlight -= 1;
        inFlightDone.delete(p);
      });
      inFlightDone.add(p);
    }
    if (opts.onProgress && now - lastProgress >= 1000) {
      lastProgress = now;
      opts.onProgress(stats, (now - started) / 1000);
    }
    await new Promise((r) => setTimeout(r, inFlight >= concurrency ? 2 : 10));
  }
  await Promise.allSettled([...inFlightDone]);
  return { ...stats, elapsedSec: (performance.now() - started) / 1000 };
}

import type { SignedWebhook } from './signing.ts';

/** What a run of sends achieved (benchmarks print these). */
export interface SendStats {
  sent: number;
  /** 2xx answers (202 accepted, 200 duplicate). */
  accepted: number;
  /** Device reports inside accepted messages. */
  devicesAccepted: number;
  errors: number;
  /** Count of answers per HTTP status (0: network error). */
  statuses: Record<number, number>;
  latenciesMs: number[];
}

export const emptyStats = (): SendStats => ({ sent: 0, accepted: 0, devicesAccepted: 0, errors: 0, statuses: {}, latenciesMs: [] });

/** p-th percentile (0..100) of the latencies, 0 when none. */
export function percentile(stats: SendStats, p: number): number {
  if (stats.latenciesMs.length === 0) return 0;
  const sorted = [...stats.latenciesMs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Posts one signed message and records the outcome in `stats`. */
export async function postWebhook(url: string, message: SignedWebhook, deviceCount: number, stats: SendStats): Promise<number> {
  const started = performance.now();
  let status = 0;
  try {
    const res = await fetch(url, { method: 'POST', headers: message.headers, body: message.body, signal: AbortSignal.timeout(30_000) });
    status = res.status;
    await res.arrayBuffer();
  } catch {
    status = 0;
  }
  stats.sent += 1;
  stats.latenciesMs.push(performance.now() - started);
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
  if (status >= 200 && status < 300) {
    stats.accepted += 1;
    stats.devicesAccepted += deviceCount;
  } else stats.errors += 1;
  return status;
}

/**
 * Sends every job with at most `concurrency` requests in flight. Jobs are built lazily
 * (signed just before sending, so timestamps stay fresh on long runs).
 */
export async function sendAll(
  jobs: Iterable<() => { url: string; message: SignedWebhook; deviceCount: number }>,
  concurrency: number,
  stats: SendStats = emptyStats(),
): Promise<SendStats> {
  const iterator = jobs[Symbol.iterator]();
  const worker = async () => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      const job = next.value();
      await postWebhook(job.url, job.message, job.deviceCount, stats);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return stats;
}

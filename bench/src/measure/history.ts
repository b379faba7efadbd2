/**
 * The device page and the reliability trends (docs/history.md): 90 days of one device's history,
 * the device detail, the company trend and a portal's trend, each warm (sequential samples), p99
 * against the 50 ms target. Devices are spread over the main tenant's portals, so samples do not
 * all read one device's rows.
 */
import { getJson } from '../lib/auth.ts';
import type { BenchContext } from '../lib/context.ts';
import type { BenchServer } from '../lib/server.ts';
import { median, percentile, round, timeSequential } from '../lib/stats.ts';

const DAY_MS = 86_400_000;

export async function measureHistory(ctx: BenchContext, server: BenchServer): Promise<void> {
  const token = await ctx.sign(ctx.main);
  const main = ctx.main;
  const to = new Date();
  const from = new Date(to.getTime() - 90 * DAY_MS);
  // A different device (and its portal) per sample: every portal's first device in turn.
  let n = 0;
  const nextDevice = () => main.firstDeviceId + ((n++ * main.devicesPerPortal) % Math.max(1, main.deviceCount));
  let p = 0;
  const nextPortal = () => main.portals[p++ % main.portals.length].id;
  const calls: [string, () => string][] = [
    [
      'device history, 90 days',
      () =>
        `/v0/api/devices/${nextDevice()}/history?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
    ],
    ['device detail', () => `/v0/api/devices/${nextDevice()}`],
    ['reliability-trend (company)', () => '/v0/api/reliability-trend'],
    ['customers/:id/reliability-trend', () => `/v0/api/customers/${nextPortal()}/reliability-trend`],
  ];
  for (const [name, path] of calls) {
    try {
      const times = await timeSequential(() => getJson(`${server.url}${path()}`, token), ctx.size.samples);
      const p99 = percentile(times, 99);
      ctx.results.add({
        group: `Device page and trends (${main.portals.length} portals, ${main.deviceCount} devices)`,
        name,
        value: median(times),
        unit: 'ms p50',
        detail: `p99 ${round(p99)} ms, ${times.length} warm samples`,
        target: '<= 50 ms p99 (L)',
        met: p99 <= 50,
      });
    } catch (err) {
      ctx.results.fail(`history ${name}`, err);
    }
  }
  // The answers' shape: 30 days and a goal; the history of a device is contiguous.
  try {
    const trend = await getJson<{ data: { goal: number; days: { date: string; score: number }[] } }>(
      `${server.url}/v0/api/reliability-trend`,
      token,
    );
    if (trend.data.days.length !== 30) throw new Error(`trend has ${trend.data.days.length} days`);
    const history = await getJson<{ data: { periods: { from: string; to: string }[] } }>(
      `${server.url}/v0/api/devices/${main.firstDeviceId}/history?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
      token,
    );
    const gaps = history.data.periods.slice(1).filter((x, i) => x.from !== history.data.periods[i].to).length;
    ctx.results.add({
      group: `Device page and trends (${main.portals.length} portals, ${main.deviceCount} devices)`,
      name: 'answers: trend days / history periods / gaps',
      value: history.data.periods.length,
      unit: 'periods',
      detail: `30 trend days, goal ${trend.data.goal}, ${gaps} gaps in 90 days of device ${main.firstDeviceId}`,
    });
  } catch (err) {
    ctx.results.fail('history answers', err);
  }
}

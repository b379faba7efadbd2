/** Server memory: RSS after start and the peak (VmHWM) over the whole run, from /proc. */
import type { BenchContext } from '../lib/context.ts';
import type { BenchServer } from '../lib/server.ts';

const MiB = 1024 * 1024;

export function measureMemory(ctx: BenchContext, server: BenchServer): Promise<void> {
  const afterStart = Number(ctx.shared.rssAfterStart ?? 0);
  const peak = server.peakRss();
  ctx.results.add({
    group: 'Memory',
    name: `server RSS (${ctx.kind}, size ${ctx.size.name})`,
    value: peak / MiB,
    unit: 'MiB peak',
    detail: `${Math.round(afterStart / MiB)} MiB after start, ${Math.round(server.rss() / MiB)} MiB now`,
    target: ctx.kind === 'pglite' ? '<= 1 GiB at S (PGlite)' : undefined,
    met: ctx.kind === 'pglite' ? peak <= 1024 * MiB : null,
  });
  return Promise.resolve();
}

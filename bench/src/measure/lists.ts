/**
 * Lists under load (autocannon): portals, devices, cases and alerts; first page, a deep page,
 * sorted and filtered; at 10 and 50 connections. Baseline: /healthz of the same server.
 *
 * In those variants every connection asks the same URL, so the server's shared reads (identical
 * concurrent GETs answered by one database round, apps/server/src/http/shared-reads.ts) serve many
 * requests per round. The 'every page different' variant walks the list's pages, no two requests
 * in flight alike: it measures one database round per request.
 *
 * Env: BENCH_LIST_CONNECTIONS=50 (comma list) runs only those connection counts;
 * BENCH_LIST_VARIANTS='every page different' (comma list, matched against "resource: variant",
 * e.g. 'devices: every,cases: first') runs only the matching variants. Default: all of them.
 */
import type { BenchContext } from '../lib/context.ts';
import { runLoad, type LoadResult } from '../lib/load.ts';
import { withServerCpu } from '../lib/server-cpu.ts';
import type { BenchServer } from '../lib/server.ts';
import { round } from '../lib/stats.ts';

const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
/** `range` is [offset, count] (contracts list-query): a page of 10 rows. */
const page = (offset: number) => `range=${enc([offset, 10])}`;

interface ListCase {
  resource: string;
  variant: 'first page' | 'deep page' | 'sorted' | 'filtered' | 'every page different';
  path: string;
  /** Paths to cycle through instead of `path` (one per request). */
  paths?: string[];
}

/** Up to 500 pages of 10 rows, spread over the whole list, in an order that alternates ends. */
function pagesOf(base: string, count: number): string[] {
  const pages = Math.max(1, Math.min(500, Math.ceil(count / 10)));
  const step = Math.max(10, Math.floor(count / pages / 10) * 10);
  return Array.from({ length: pages }, (_, i) => `${base}?${page(((i % 2 ? pages - 1 - (i >> 1) : i >> 1) * step) % Math.max(count, 1))}`);
}

/** The list's total as the server counts it now (the server's own jobs may have added rows since seeding). */
async function totalOf(ctx: BenchContext, server: BenchServer, base: string): Promise<number> {
  const res = await fetch(`${server.url}${base}?${page(0)}`, { headers: { authorization: `Bearer ${await ctx.sign(ctx.main)}` } });
  const body = (await res.json()) as { data?: { count?: number } };
  if (!res.ok || typeof body.data?.count !== 'number') throw new Error(`${base}: ${res.status}`);
  return body.data.count;
}

async function listCases(ctx: BenchContext, server: BenchServer): Promise<ListCase[]> {
  // The deep page is the last 10 rows.
  const deep = (count: number) => Math.max(0, count - 10);
  const resources: { resource: string; base: string; count: number; sort: [string, string]; filter: Record<string, unknown> }[] = [];
  const specs: [string, string, [string, string], Record<string, unknown>][] = [
    ['portals', '/v0/api/customers', ['reliabilityScore', 'DESC'], { q: 'Customer 1-00' }],
    ['devices', '/v0/api/devices', ['lastOnline', 'DESC'], { status: 0 }],
    ['cases', '/v0/api/case-stats', ['createdAt', 'DESC'], { caseType: 1 }],
    ['alerts', '/v0/api/alert-stats', ['createdAt', 'DESC'], { alertType: 0 }],
  ];
  for (const [resource, base, sort, filter] of specs)
    resources.push({ resource, base, count: await totalOf(ctx, server, base), sort, filter });
  return resources.flatMap((r) => [
    { resource: r.resource, variant: 'first page' as const, path: `${r.base}?${page(0)}` },
    { resource: r.resource, variant: 'deep page' as const, path: `${r.base}?${page(deep(r.count))}` },
    { resource: r.resource, variant: 'sorted' as const, path: `${r.base}?${page(0)}&sort=${enc(r.sort)}` },
    { resource: r.resource, variant: 'filtered' as const, path: `${r.base}?${page(0)}&filter=${enc(r.filter)}` },
    { resource: r.resource, variant: 'every page different' as const, path: `${r.base}?${page(0)}`, paths: pagesOf(r.base, r.count) },
  ]);
}

/**
 * Waits until the server has finished what the previous variant left running: autocannon closes its
 * connections at the end of a run, but requests already queued for the database keep running, and a
 * slow variant (seconds per request at 50 connections) would otherwise be measured as the next one.
 * Drained = a one-row page answers within 50 ms (or 60 s have passed).
 */
async function drain(ctx: BenchContext, server: BenchServer): Promise<void> {
  const url = `${server.url}/v0/api/case-stats?range=${encodeURIComponent('[0,1]')}`;
  const headers = { authorization: `Bearer ${await ctx.sign(ctx.main)}` };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await fetch(url, { headers }).then((r) => r.arrayBuffer());
    if (performance.now() - started < 50) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function measureLists(ctx: BenchContext, server: BenchServer): Promise<void> {
  const loadOf = (path: string, connections: number, token?: string, paths?: string[]) => {
    let next = 0;
    return runLoad({
      url: `${server.url}${path}`,
      connections,
      duration: ctx.size.duration,
      amount: ctx.size.amount,
      maxConnections: ctx.size.maxConnections,
      headers: token ? { authorization: `Bearer ${token}` } : undefined,
      ...(paths && { setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }),
    });
  };
  const label = ctx.kind === 'pglite' ? `S on PGlite` : `L on PostgreSQL`;
  // BENCH_LIST_CONNECTIONS=50 (comma list) overrides the size's connection counts, for a shorter run.
  const levels = process.env.BENCH_LIST_CONNECTIONS?.split(',').map(Number) ?? ctx.size.listConnections;
  for (const wanted of levels) {
    const connections = Math.min(wanted, ctx.size.maxConnections ?? wanted);
    const trivial = await loadOf('/healthz', connections);
    ctx.results.add({
      group: `Lists @${connections} conn`,
      name: 'baseline: GET /healthz',
      value: trivial.reqPerSec,
      unit: 'req/s',
      detail: `p50 ${trivial.p50} ms, p99 ${trivial.p99} ms`,
    });
    const firstPages = new Map<string, LoadResult>();
    const wantedVariants = process.env.BENCH_LIST_VARIANTS?.split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    const chosen = (c: ListCase) => !wantedVariants || wantedVariants.some((w) => `${c.resource}: ${c.variant}`.includes(w));
    for (const c of (await listCases(ctx, server)).filter(chosen)) {
      try {
        await drain(ctx, server);
        const token = await ctx.sign(ctx.main);
        const r = await withServerCpu(server, () => loadOf(c.path, connections, token, c.paths));
        if (c.variant === 'first page') firstPages.set(c.resource, r);
        const first = firstPages.get(c.resource);
        const targets: string[] = [];
        let met: boolean | null = null;
        if (connections === 50) {
          targets.push(`p99 <= 50 ms (${label})`);
          met = r.p99 <= 50;
          if (ctx.kind === 'postgres') {
            targets.push('>= 0.1x trivial');
            met = met && r.reqPerSec >= 0.1 * trivial.reqPerSec;
          }
          if (c.variant === 'deep page' && first) {
            targets.push('deep p50 within 2x of first');
            met = met && r.p50 <= 2 * Math.max(first.p50, 1);
          }
        }
        ctx.results.add({
          group: `Lists @${connections} conn`,
          name: `${c.resource}: ${c.variant}`,
          value: r.reqPerSec,
          unit: 'req/s',
          detail: `p50 ${r.p50} ms, p99 ${r.p99} ms${r.perServerCpuSecond ? `, ${Math.round(r.perServerCpuSecond)} req per server CPU-second` : ''}${r.non2xx ? `, ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}` : ''}`,
          baseline: { name: '/healthz', value: trivial.reqPerSec, unit: 'req/s' },
          ratio: round(r.reqPerSec / trivial.reqPerSec, 3),
          target: targets.join(', ') || undefined,
          met: r.non2xx > 0 ? false : met,
        });
      } catch (err) {
        ctx.results.fail(`list ${c.resource} ${c.variant} @${connections}`, err);
      }
    }
  }
}

/**
 * LCP, CLS and TBT of the seeded Pulse page in headless Chromium (playwright-core, the system
 * /usr/bin/chromium), median of 5 cold loads (a fresh browser context each). The session is put
 * where the web app keeps it (redux-persist `persist:root` in localStorage) with a token signed
 * for the main tenant's Admin, so the page loads straight into Pulse with the seeded data.
 * TBT = sum over long tasks after first contentful paint of (duration - 50 ms), up to network idle.
 */
import { existsSync, lstatSync, mkdtempSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { allCpus, cpuPlan, machineCpus, pinTo, setAffinity } from '../lib/cpu.ts';
import type { BenchContext } from '../lib/context.ts';
import type { BenchServer } from '../lib/server.ts';
import { summarizeProfiles } from '../lib/profile.ts';
import { median, round } from '../lib/stats.ts';
import { WEB_DIST } from '../lib/web-dist.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Runs in the page before any script: observers for the three metrics (buffered). */
const OBSERVERS = `
  window.__vitals = { lcp: 0, cls: 0, fcp: 0, longTasks: [] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__vitals.lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__vitals.cls += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') window.__vitals.fcp = e.startTime; })
    .observe({ type: 'paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__vitals.longTasks.push([e.startTime, e.duration]); })
    .observe({ type: 'longtask', buffered: true });
`;

/**
 * BENCH_DEBUG only, not judged: where a cold load's time went. The document, the entry (index.html's
 * assets: scripts, modulepreloads, stylesheet), each later wave of chunks (requested together: route chunks, then the page body),
 * the first API call, first paint, and main-thread blocking (long tasks over 50 ms) before it.
 */
const LOAD_BREAKDOWN = `(async () => {
  const ms = (x) => Math.round(x);
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const html = await (await fetch(location.href)).text();
  const initial = new Set([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], location.href).href).filter((u) => u.includes('/assets/')));
  const entry = res.filter((r) => initial.has(r.name));
  const assets = res.filter((r) => r.name.includes('/assets/') && !initial.has(r.name)).sort((a, b) => a.startTime - b.startTime);
  const waves = [];
  for (const r of assets) {
    const w = waves.at(-1);
    if (w && r.startTime - w.start < 60) { w.n++; w.end = Math.max(w.end, r.responseEnd); w.bytes += r.encodedBodySize; }
    else waves.push({ start: r.startTime, end: r.responseEnd, n: 1, bytes: r.encodedBodySize });
  }
  const api = res.filter((r) => r.name.includes('/v0/')).sort((a, b) => a.startTime - b.startTime)[0];
  const fcp = window.__vitals.fcp;
  const blocking = window.__vitals.longTasks.filter(([s]) => s < fcp).reduce((a, [, d]) => a + d, 0);
  return [
    'document ' + ms(nav.responseEnd) + ' ms',
    'entry ' + entry.length + ' files ' + ms(Math.min(...entry.map((r) => r.startTime))) + '-' + ms(Math.max(...entry.map((r) => r.responseEnd))) + ' ms',
    ...waves.map((w) => 'chunks ' + w.n + ' files (' + Math.round(w.bytes / 1000) + ' KB on the wire) ' + ms(w.start) + '-' + ms(w.end) + ' ms'),
    'first API call ' + (api ? ms(api.startTime) + ' ms' : '-'),
    'FCP ' + ms(fcp) + ' ms, LCP ' + ms(window.__vitals.lcp) + ' ms, long tasks before FCP ' + ms(blocking) + ' ms',
  ].join('; ');
})()`;

/** A CPU profile and a trace of the page's main thread; stop() writes both and prints where the time went. */
async function startPageProfile(page: Page): Promise<{ stop(): Promise<void> }> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'blink'] });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      const traceJson = (await browser.stopTracing()).toString('utf8');
      const trace = JSON.parse(traceJson) as { traceEvents: TraceEvent[] };
      console.log(
        `browser main thread before first contentful paint, by top-level trace event: ${mainThreadBeforeFcp(trace.traceEvents, page.url())}`,
      );
      const dir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-web-prof-'));
      writeFileSync(path.join(dir, 'pulse-cold-load.cpuprofile'), JSON.stringify(profile));
      writeFileSync(path.join(dir, 'pulse-cold-load.trace.json'), traceJson);
      const summary = summarizeProfiles(dir, [], 25);
      console.log(`browser main-thread profile of one cold load (${dir}), share of busy time:`);
      console.log(
        `  by file: ${Object.entries(summary.categories)
          .map(([k, v]) => `${k} ${v}%`)
          .join(', ')}`,
      );
      console.log(summary.hot.map((h) => `  ${h.share}%  ${h.frame}`).join('\n'));
    },
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string } };
}

/**
 * Where the main thread's time went from the document's request to first contentful paint: its
 * top-level events (the ones no other event contains) summed by name, in ms.
 */
function mainThreadBeforeFcp(events: TraceEvent[], documentUrl: string): string {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  const request = events.find((e) => e.name === 'ResourceSendRequest' && e.args?.data?.url === documentUrl);
  if (!fcp || !request) return 'no first contentful paint or document request in the trace';
  const main = events
    .filter((e) => e.pid === fcp.pid && e.tid === fcp.tid && e.ph === 'X' && e.dur !== undefined && e.ts >= request.ts && e.ts < fcp.ts)
    .sort((x, y) => x.ts - y.ts || y.dur! - x.dur!);
  const byName = new Map<string, number>();
  let end = 0;
  let busy = 0;
  for (const e of main) {
    if (e.ts < end) continue;
    end = e.ts + e.dur!;
    busy += e.dur! / 1000;
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur! / 1000);
  }
  const top = [...byName.entries()].sort((x, y) => y[1] - x[1]).slice(0, 8);
  return `FCP at ${Math.round((fcp.ts - request.ts) / 1000)} ms, main thread busy ${Math.round(busy)} ms of it: ${top.map(([n, ms]) => `${n} ${Math.round(ms)}`).join(', ')}`;
}

interface LoadFigures {
  lcp: number;
  cls: number;
  tbt: number;
  allBlocking: number;
}

/**
 * A browser whose processes may run on `cpus` (taskset list, e.g. "0-1" or "1"): they inherit the
 * bench's affinity at launch, so the bench widens its own for the launch and pins itself back after.
 */
async function launchOn(cpus: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const load = cpuPlan().load;
  setAffinity(process.pid, cpus);
  try {
    // Without the background-networking flags Chromium's own requests to the closed network delayed the
    // first document by ~1.5 s on this machine (navigation responseEnd 1,711 ms -> 148 ms with them).
    return await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } finally {
    if (load !== undefined) pinTo(process.pid, load);
  }
}

function report(ctx: BenchContext, runs: LoadFigures[], where: string, judged: boolean): void {
  const ab = abBuilds();
  if (ab) {
    // Each build's loads alone, never judged: a comparison of two builds, not the app's figure.
    ab.forEach((dir, v) =>
      reportFigures(
        ctx,
        runs.filter((_, i) => i % 2 === v),
        `${where}, build ${'AB'[v]} (${dir})`,
        false,
      ),
    );
    return;
  }
  reportFigures(ctx, runs, where, judged);
}

function reportFigures(ctx: BenchContext, runs: LoadFigures[], where: string, judged: boolean): void {
  const lcp = median(runs.map((r) => r.lcp));
  const cls = median(runs.map((r) => r.cls));
  const tbt = median(runs.map((r) => r.tbt));
  const allBlocking = median(runs.map((r) => r.allBlocking));
  const detail = `median of ${runs.length} cold loads, ${ctx.main.portals.length} portals, ${where}`;
  const group = 'Web app (Pulse page)';
  const suffix = judged ? '' : ` (${where})`;
  const target = (text: string, met: boolean) => (judged ? { target: text, met } : {});
  ctx.results.add({ group, name: `LCP${suffix}`, value: lcp, unit: 'ms', detail, ...target('<= 1 s', lcp <= 1000) });
  ctx.results.add({ group, name: `CLS${suffix}`, value: round(cls, 3), unit: '', detail, ...target('<= 0.05', cls <= 0.05) });
  ctx.results.add({
    group,
    name: `TBT (after first contentful paint)${suffix}`,
    value: tbt,
    unit: 'ms',
    detail: `${detail}; blocking before FCP too: ${Math.round(allBlocking)} ms`,
    ...target('<= 200 ms', tbt <= 200),
  });
}

/**
 * Judged: the browser on every CPU, as a desktop browser has several cores (the server stays pinned to
 * its own and only serves the page and its API calls during these loads). Beside it, on a machine with
 * CPUs to pin, the same loads with the browser on the load generator's one CPU: the figure a one-core
 * client would see, and the one earlier runs reported.
 */
export async function measureWebVitals(ctx: BenchContext, server: BenchServer): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    ctx.results.fail('web vitals', new Error(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`));
    return;
  }
  const load = cpuPlan().load;
  const setups: { cpus: string; where: string; judged: boolean }[] = [
    { cpus: allCpus(), where: `browser on all ${machineCpus()} CPUs`, judged: true },
  ];
  if (load !== undefined && ctx.size.name !== 'tiny')
    setups.push({ cpus: String(load), where: `browser on CPU ${load} only`, judged: false });
  for (const setup of setups) {
    let browser: Browser | undefined;
    try {
      browser = await launchOn(setup.cpus);
      report(ctx, await coldLoads(ctx, server, browser), setup.where, setup.judged);
    } catch (err) {
      ctx.results.fail(`web vitals (${setup.where})`, err);
    } finally {
      await browser?.close();
    }
  }
}

/**
 * BENCH_WEB_AB=<dirA>,<dirB>: two builds of the web app compared load by load, A and B in turn, so both see
 * the same host (on this machine a core's speed moves by 2x within minutes, and the medians of separate
 * runs by ~200 ms). apps/web/dist must be a symbolic link to a build (the bundle sizes read it first):
 * the server resolves its files per request, and the link is pointed at A or B before each load.
 */
function abBuilds(): [string, string] | undefined {
  const dirs = process.env.BENCH_WEB_AB?.split(',');
  if (!dirs) return undefined;
  if (dirs.length !== 2 || dirs.some((d) => !existsSync(path.join(d, 'index.html'))))
    throw new Error('BENCH_WEB_AB: two built web apps, comma separated (each with an index.html)');
  return [path.resolve(dirs[0]), path.resolve(dirs[1])];
}

/** Where apps/web/dist pointed before an A/B, to point it back afterwards (undefined: not a link). */
function webDistLink(): string | undefined {
  return isLink(WEB_DIST) ? readlinkSync(WEB_DIST) : undefined;
}

/** Points apps/web/dist back at `target`, or removes the link the A/B left; a folder (never replaced) stays. */
function restoreWebDist(target: string | undefined): void {
  if (target) pointWebDistAt(target);
  else if (isLink(WEB_DIST)) rmSync(WEB_DIST);
}

/** A symbolic link, dangling or not (existsSync follows links). */
const isLink = (p: string) => lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;

function pointWebDistAt(dir: string): void {
  if (existsSync(WEB_DIST) && !lstatSync(WEB_DIST).isSymbolicLink())
    throw new Error(`BENCH_WEB_AB: ${WEB_DIST} is a folder; move it away and leave a symbolic link to a build there`);
  const next = `${WEB_DIST}.next`;
  rmSync(next, { force: true });
  symlinkSync(dir, next);
  renameSync(next, WEB_DIST);
}

/** One browser's cold loads of Pulse: the figures of each load. */
async function coldLoads(ctx: BenchContext, server: BenchServer, browser: Browser): Promise<LoadFigures[]> {
  const token = await ctx.sign(ctx.main);
  const auth = {
    accessTaken: token,
    refreshTaken: '',
    roles: ['Admin'],
    tenantName: ctx.main.name,
    tenantId: ctx.main.id,
    userId: ctx.main.adminUserId,
    userName: 'Bench Admin',
  };
  const persisted = JSON.stringify({ auth: JSON.stringify(auth), _persist: JSON.stringify({ version: 1, rehydrated: true }) });
  const runs: LoadFigures[] = [];
  // BENCH_WEB_LOADS: more cold loads for comparing two builds (the figure is still their median).
  const loads = ctx.size.name === 'tiny' ? 1 : loadsPerSetup();
  // BENCH_WEB_PROF=1: one more cold load, profiled and traced, outside the judged figures (profiling slows it).
  const profiled = process.env.BENCH_WEB_PROF ? loads : -1;
  const ab = abBuilds();
  const before = ab && webDistLink();
  try {
    for (let i = 0; i < loads || i === profiled; i++) {
      if (ab) pointWebDistAt(ab[i % 2]);
      const figures = await coldLoad(ctx, server, browser, persisted, i === profiled);
      if (i !== profiled) runs.push(figures);
    }
  } finally {
    // Later phases (the bundle sizes) read apps/web/dist: leave it as it was found.
    if (ab) restoreWebDist(before);
  }
  return runs;
}

function loadsPerSetup(): number {
  const loads = Number(process.env.BENCH_WEB_LOADS ?? 5);
  if (!Number.isInteger(loads) || loads < 1)
    throw new Error(`BENCH_WEB_LOADS: a whole number of loads, at least 1 (got ${process.env.BENCH_WEB_LOADS})`);
  return loads;
}

/** One cold load of Pulse in a new browser context; profiled (BENCH_WEB_PROF) when asked. */
async function coldLoad(
  ctx: BenchContext,
  server: BenchServer,
  browser: Browser,
  persisted: string,
  profile: boolean,
): Promise<LoadFigures> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(`localStorage.setItem('persist:root', ${JSON.stringify(persisted)});${OBSERVERS}`);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
  const profiler = profile ? await startPageProfile(page) : undefined;
  const res = await page.goto(`${server.url}/dashboards/pulse`, { waitUntil: 'networkidle', timeout: 60_000 });
  if (!res || res.status() !== 200) throw new Error(`GET /dashboards/pulse answered ${res?.status()} (is apps/web/dist built?)`);
  // Rendered: the page title "Pulse ..." is on screen (then a second for late shifts and long tasks).
  const rendered = await page
    .waitForFunction(() => document.body.innerText.includes('Pulse'), null, { timeout: 60_000 })
    .then(
      () => true,
      () => false,
    );
  await page.waitForTimeout(1000);
  if (profiler) await profiler.stop();
  if (process.env.BENCH_DEBUG) console.log('body:', (await page.innerText('body')).slice(0, 300));
  if (process.env.BENCH_DEBUG && pageErrors.length) console.log('page errors:', pageErrors.slice(0, 5));
  if (process.env.BENCH_DEBUG && !rendered) await page.screenshot({ path: '/tmp/vigil-bench-pulse.png' });
  if (!rendered)
    throw new Error(`the Pulse page did not render "Pulse" within 60 s; page errors: ${JSON.stringify(pageErrors.slice(0, 3))}`);
  const landed = new URL(page.url()).pathname;
  if (!landed.startsWith('/dashboards/pulse')) throw new Error(`the Pulse page redirected to ${landed}`);
  const v = await page.evaluate<{ lcp: number; cls: number; fcp: number; longTasks: [number, number][] }>('window.__vitals');
  const tbt = v.longTasks.filter(([start]) => start >= v.fcp).reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
  if (process.env.BENCH_DEBUG) {
    console.log(JSON.stringify(v), await page.title());
    console.log(`  breakdown: ${await page.evaluate<string>(LOAD_BREAKDOWN)}`);
    await page.screenshot({ path: '/tmp/vigil-bench-pulse.png' });
  }
  const allBlocking = v.longTasks.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
  await context.close();
  return { lcp: v.lcp, cls: v.cls, tbt, allBlocking };
}

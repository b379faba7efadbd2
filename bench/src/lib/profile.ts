import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  /** Microseconds on the machine's monotonic clock (V8's TimeTicks: CLOCK_MONOTONIC on Linux). */
  startTime: number;
  timeDeltas: number[];
}

/** A stretch of the monotonic clock in microseconds, as `monotonicMicros()` reads it in any process. */
export interface ProfileWindow {
  from: number;
  to: number;
}

/**
 * Now on the clock the server's profiles are stamped with: Node's hrtime and V8's profiler both
 * read CLOCK_MONOTONIC, which every process on the machine shares, so the bench can cut the
 * server's (and its threads') profiles to the phases it measured, leaving start-up and seeding out.
 */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

export interface ProfileSummary {
  /** Share of busy samples (idle excluded) per kind of code. */
  categories: Record<string, number>;
  /** The same shares in the three parts docs/performance.md splits the server's work into. */
  parts: Record<string, number>;
  /** Busy CPU seconds per profiled thread (one .cpuprofile file each: the main thread, workers). */
  threads: { file: string; busySeconds: number }[];
  /** Heaviest frames by self time, share of busy samples. */
  hot: { frame: string; share: number }[];
}

const HTTP_NATIVE = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'read', 'close', 'shutdown', 'onStreamRead']);
const FRAMEWORK = /^(fastify|@fastify\/.*|find-my-way|avvio|light-my-request|fast-json-stringify|helmet|pino.*|ws|abstract-logging)$/;

/** What kind of code a frame is (self time). */
function categoryOf(url: string, fn: string): string {
  if (fn === '(garbage collector)') return 'garbage collector';
  if (url.startsWith('wasm://')) return 'PGlite (wasm)';
  if (url.includes('/node_modules/')) {
    const pkg = url.replace(/^.*\/node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1');
    if (pkg === '@electric-sql/pglite') return 'PGlite (JS)';
    if (pkg === 'pg' || pkg === 'pg-protocol' || pkg === 'pg-types' || pkg === 'pg-pool') return 'node-postgres';
    if (FRAMEWORK.test(pkg)) return 'HTTP framework (fastify, helmet, logger)';
    if (pkg === 'zod') return 'zod (validation)';
    if (pkg === 'drizzle-orm') return 'drizzle-orm';
    return pkg;
  }
  if (url.includes('/apps/server/') || url.includes('/packages/')) return 'app code';
  if (
    url.includes('internal/crypto') ||
    (url === '' && /^(createHmac|digest|update|timingSafeEqual|pbkdf2|scrypt|randomBytes|sign|verify)$/.test(fn))
  )
    return 'crypto';
  if (/^node:(_http|net|http|internal\/(http|stream|streams|net|dns|tls)|stream)/.test(url) || (url === '' && HTTP_NATIVE.has(fn)))
    return 'HTTP and sockets (node)';
  if (url === '' && (fn === 'parse' || fn === 'stringify')) return 'JSON';
  if (url.startsWith('node:internal/modules') || url.includes('/node_modules/tsx/')) return 'module loading';
  if (url.startsWith('node:') || url === '') return 'node internals / native (other)';
  // The web app's built files (a browser profile of a page load): one kind per chunk.
  if (url.includes('/assets/')) return url.replace(/^.*\/assets\/([^/?]+?)(-[\w-]{8})?\.js.*$/, '$1');
  return 'other';
}

/** The issue's three parts: the request's plumbing, our code, the database driver and engine. */
function partOf(category: string): string {
  if (category.startsWith('PGlite') || category === 'node-postgres') return 'database (PGlite / driver)';
  if (category === 'app code' || category === 'drizzle-orm' || category === 'zod (validation)') return 'our code (incl. drizzle, zod)';
  if (category === 'garbage collector') return 'garbage collector';
  return 'HTTP, JSON, crypto, runtime';
}

/**
 * Where the server's CPU went, from its .cpuprofile files (node --cpu-prof; one per thread): the
 * tool that names the bottleneck of a missed target. PGlite's SQL work shows as wasm frames. With
 * `windows`, only samples taken inside them count (the measured phases, not start-up).
 */
export function summarizeProfiles(dir: string, windows: ProfileWindow[] = [], top = 12): ProfileSummary {
  const frames = new Map<string, number>();
  const categories = new Map<string, number>();
  const parts = new Map<string, number>();
  const threads: ProfileSummary['threads'] = [];
  const inWindow = (t: number) => windows.length === 0 || windows.some((w) => t >= w.from && t <= w.to);
  let busy = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    let at = profile.startTime;
    let busyMicros = 0;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      at += delta;
      const cf = byId.get(id)?.callFrame;
      if (!cf || cf.functionName === '(idle)' || !inWindow(at)) return;
      busy++;
      busyMicros += delta;
      const where = cf.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|packages)\//, '$1/');
      const frame = `${cf.functionName || '(anonymous)'}${where ? ` ${where}:${cf.lineNumber + 1}` : ''}`;
      frames.set(frame, (frames.get(frame) ?? 0) + 1);
      const cat = categoryOf(cf.url, cf.functionName);
      categories.set(cat, (categories.get(cat) ?? 0) + 1);
      parts.set(partOf(cat), (parts.get(partOf(cat)) ?? 0) + 1);
    });
    threads.push({ file, busySeconds: Math.round(busyMicros / 10_000) / 100 });
  }
  const share = (n: number) => Math.round((1000 * n) / Math.max(busy, 1)) / 10;
  const shares = (counts: Map<string, number>, limit: number) =>
    Object.fromEntries(
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, limit)
        .map(([k, n]) => [k, share(n)]),
    );
  return {
    categories: shares(categories, 12),
    parts: shares(parts, 4),
    threads,
    hot: [...frames.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([frame, n]) => ({ frame, share: share(n) })),
  };
}

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
}

export interface ProfileSummary {
  /** Share of busy samples (idle excluded) per kind of code. */
  categories: Record<string, number>;
  /** Heaviest frames by self time, share of busy samples. */
  hot: { frame: string; share: number }[];
}

function categoryOf(url: string, fn: string): string {
  if (fn === '(garbage collector)') return 'garbage collector';
  if (url.startsWith('wasm://')) return 'PGlite (wasm)';
  if (url.includes('/node_modules/')) return url.replace(/^.*\/node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1');
  if (url.includes('/apps/server/') || url.includes('/packages/')) return 'app code';
  if (url.startsWith('node:') || url === '') return 'node internals / native';
  // The web app's built files (a browser profile of a page load): one kind per chunk.
  if (url.includes('/assets/')) return url.replace(/^.*\/assets\/([^/?]+?)(-[\w-]{8})?\.js.*$/, '$1');
  return 'other';
}

/**
 * Where the server's CPU went over the run, from its .cpuprofile files (node --cpu-prof): the
 * tool that names the bottleneck of a missed target. PGlite's SQL work shows as wasm frames.
 */
export function summarizeProfiles(dir: string, top = 12): ProfileSummary {
  const frames = new Map<string, number>();
  const categories = new Map<string, number>();
  let busy = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    for (const id of profile.samples) {
      const cf = byId.get(id)?.callFrame;
      if (!cf || cf.functionName === '(idle)') continue;
      busy++;
      const where = cf.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|packages)\//, '$1/');
      const frame = `${cf.functionName || '(anonymous)'}${where ? ` ${where}:${cf.lineNumber + 1}` : ''}`;
      frames.set(frame, (frames.get(frame) ?? 0) + 1);
      const cat = categoryOf(cf.url, cf.functionName);
      categories.set(cat, (categories.get(cat) ?? 0) + 1);
    }
  }
  const share = (n: number) => Math.round((1000 * n) / Math.max(busy, 1)) / 10;
  return {
    categories: Object.fromEntries(
      [...categories.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([k, n]) => [k, share(n)]),
    ),
    hot: [...frames.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([frame, n]) => ({ frame, share: share(n) })),
  };
}

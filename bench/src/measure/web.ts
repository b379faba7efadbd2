/**
 * Web app: initial JavaScript (gzip) per route and in total, read from apps/web/dist (run
 * `npm run build` first): the entry of index.html plus everything it imports statically; a route
 * adds its layout's lazy chunk (auth card, dashboard shell), its page's lazy chunk and their static
 * imports. "Pulse incl. lazy chunks" also follows the dynamic imports made from the Pulse chunk's
 * graph (charts loaded on demand and such). The sign-in route is judged on JS + CSS: the render-blocking
 * stylesheets of index.html plus the stylesheets its lazy chunks load with them (the `.css` files in
 * the preload list Vite gives each dynamic import: `__vite__mapDeps([...])`).
 * Then LCP, CLS and TBT of the seeded Pulse page in headless Chromium (web-vitals.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchContext } from '../lib/context.ts';
import type { BenchServer } from '../lib/server.ts';
import { WEB_DIST } from '../lib/web-dist.ts';
import { measureWebVitals } from './web-vitals.ts';

const KB = 1000;

const STATIC_IMPORT = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["']([^"']+\.js)["']\s*\)/g;
const MAPPED_DEPS = /["'](assets\/[^"']+\.js)["']/g;

class Bundle {
  private cache = new Map<string, { gz: number; code: string }>();
  constructor(readonly dist: string) {}

  file(rel: string) {
    let f = this.cache.get(rel);
    if (!f) {
      const code = readFileSync(path.join(this.dist, rel), 'utf8');
      f = { code, gz: gzipSync(code).length };
      this.cache.set(rel, f);
    }
    return f;
  }

  private resolve(from: string, spec: string): string | null {
    if (spec.startsWith('/')) return spec.slice(1);
    if (spec.startsWith('assets/')) return spec;
    if (spec.startsWith('.')) return path.posix.join(path.posix.dirname(from), spec);
    return null;
  }

  edges(rel: string, kind: 'static' | 'dynamic'): string[] {
    const code = this.file(rel).code;
    const out = new Set<string>();
    const patterns = kind === 'static' ? [STATIC_IMPORT] : [DYNAMIC_IMPORT, MAPPED_DEPS];
    for (const re of patterns) {
      for (const m of code.matchAll(re)) {
        const target = this.resolve(rel, m[1]);
        if (target && target !== rel && existsSync(path.join(this.dist, target))) out.add(target);
      }
    }
    return [...out];
  }

  /** Files reachable by static imports (and dynamic ones from files not in `noDynamicFrom`, when asked). */
  closure(roots: string[], dynamic = false, noDynamicFrom = new Set<string>()): Set<string> {
    const seen = new Set<string>();
    const stack = [...roots];
    while (stack.length) {
      const f = stack.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      stack.push(...this.edges(f, 'static'));
      if (dynamic && !noDynamicFrom.has(f)) stack.push(...this.edges(f, 'dynamic'));
    }
    return seen;
  }

  /**
   * The stylesheets loaded with the lazy chunk `chunk`: the `.css` entries of the preload list of its
   * dynamic import (`import("./X.js"),__vite__mapDeps([i, ...])`) in any of `importers`.
   */
  cssOfLazy(chunk: string, importers: Iterable<string>): string[] {
    const out = new Set<string>();
    const name = path.posix.basename(chunk).replace(/[.$]/g, '\\$&');
    // `import("./X.js")`, maybe `.then(...)`, then its preload list (before any other import()).
    const call = new RegExp(
      `import\\(\\s*[\`'"]\\./${name}[\`'"]\\s*\\)(?:(?!import\\()[^])*?__vite__mapDeps\\(\\[([\\d,\\s]*)\\]\\)`,
      'g',
    );
    for (const f of importers) {
      const code = this.file(f).code;
      const deps = /m\.f=(\[[^\]]*\])/.exec(code);
      if (!deps) continue;
      const list = JSON.parse(deps[1]) as string[];
      for (const m of code.matchAll(call))
        for (const i of m[1].split(',').filter((x) => x.trim()))
          if (list[Number(i)]?.endsWith('.css') && existsSync(path.join(this.dist, list[Number(i)]))) out.add(list[Number(i)]);
    }
    return [...out];
  }

  gz(files: Iterable<string>): number {
    let total = 0;
    for (const f of files) total += this.file(f).gz;
    return total;
  }
}

export function analyzeBundle(dist = WEB_DIST) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  // Every script index.html loads: the module entry, its preloads, and any classic script.
  const entries = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => m[1].replace(/^\//, ''));
  // Stylesheets every route loads before its first paint (render-blocking): not JavaScript, reported beside it.
  const stylesheets = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1].replace(/^\//, ''));
  const b = new Bundle(dist);
  const initial = b.closure(entries);
  const allJs = readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`);
  const lazyRoots = [...new Set([...initial].flatMap((f) => b.edges(f, 'dynamic')))].filter((f) => !initial.has(f));
  const routeChunk = (re: RegExp) => lazyRoots.find((f) => re.test(path.basename(f)));
  // A route loads its layout's lazy chunk too (the auth card, the dashboard shell), then its page's.
  const routeInitial = (...chunks: (string | undefined)[]) => {
    const roots = chunks.filter((c): c is string => c !== undefined);
    return roots.length ? new Set([...initial, ...b.closure(roots)]) : initial;
  };
  const authLayout = routeChunk(/^AuthLayout-/);
  const shell = routeChunk(/^DashboardLayout-/);
  const signIn = routeChunk(/sign-?in/i);
  const pulse = routeChunk(/pulse/i);
  const shellInitial = routeInitial(shell);
  // Lazy chunks of Pulse: what its own graph imports dynamically (charts), not the shell's dialogs.
  // What the sign-in page loads of CSS: index.html's stylesheets and those of its layout's and page's chunks.
  const signInJs = routeInitial(authLayout, signIn);
  const signInCss = [...new Set([...stylesheets, ...[authLayout, signIn].flatMap((c) => (c ? b.cssOfLazy(c, signInJs) : []))])];
  const pulseAll = pulse ? new Set([...routeInitial(shell, pulse), ...b.closure([pulse], true, shellInitial)]) : initial;
  const largest = (files: Set<string>) =>
    [...files]
      .map((f) => [path.basename(f), b.file(f).gz] as const)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 4)
      .map(([f, gz]) => `${f} ${Math.round(gz / KB)} KB`)
      .join(', ');
  return {
    entries,
    largestInSignIn: largest(routeInitial(authLayout, signIn)),
    initialGz: b.gz(initial),
    initialCssGz: b.gz(stylesheets),
    totalGz: b.gz(allJs),
    jsFiles: allJs.length,
    lazyChunks: lazyRoots.length,
    signIn: {
      chunk: signIn ?? null,
      layout: authLayout ?? null,
      gz: b.gz(signInJs),
      css: signInCss.map((f) => path.basename(f)),
      cssGz: b.gz(signInCss),
    },
    shell: { chunk: shell ?? null, gz: b.gz(shellInitial), css: shell ? b.cssOfLazy(shell, initial).map((f) => path.basename(f)) : [] },
    pulse: {
      chunk: pulse ?? null,
      gz: b.gz(routeInitial(shell, pulse)),
      withLazyGz: b.gz(pulseAll),
      lazyFiles: [...pulseAll].filter((f) => !routeInitial(shell, pulse).has(f)).map((f) => path.basename(f)),
    },
    routes: Object.fromEntries(lazyRoots.map((f) => [path.basename(f), b.gz(routeInitial(f))])),
  };
}

export async function measureWebApp(ctx: BenchContext, server: BenchServer): Promise<void> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    ctx.results.fail('web bundle', new Error('apps/web/dist is missing: run `npm run build` first'));
    return;
  }
  const a = analyzeBundle();
  const note = a.lazyChunks === 0 ? 'no lazy route chunks: every route loads the whole app' : undefined;
  ctx.results.add({
    group: 'Web app (gzip)',
    name: `initial JS (entry + static imports)`,
    value: a.initialGz / KB,
    unit: 'KB',
    detail: `all JS ${Math.round(a.totalGz / KB)} KB in ${a.jsFiles} files, ${a.lazyChunks} lazy chunks`,
  });
  ctx.results.add({
    group: 'Web app (gzip)',
    name: 'initial CSS (render-blocking stylesheets of index.html)',
    value: a.initialCssGz / KB,
    unit: 'KB',
  });
  const signInTotal = a.signIn.gz + a.signIn.cssGz;
  ctx.results.add({
    group: 'Web app (gzip)',
    name: `sign-in route initial JS + CSS (entry${a.signIn.layout ? ` + ${path.basename(a.signIn.layout)}` : ''}${a.signIn.chunk ? ` + ${path.basename(a.signIn.chunk)}` : ''} + their stylesheets)`,
    value: signInTotal / KB,
    unit: 'KB',
    detail: `JS ${Math.round(a.signIn.gz / KB)} KB (largest: ${a.largestInSignIn}); CSS ${Math.round(a.signIn.cssGz / KB)} KB (${a.signIn.css.join(', ') || 'none'})`,
    target: '<= 250 KB',
    met: signInTotal <= 250 * KB,
    note,
  });
  ctx.results.add({
    group: 'Web app (gzip)',
    name: `dashboard shell initial JS (entry${a.shell.chunk ? ` + ${path.basename(a.shell.chunk)}` : ''})`,
    value: a.shell.gz / KB,
    unit: 'KB',
    detail: `stylesheets loaded with the shell: ${a.shell.css.join(', ') || 'none'}`,
  });
  ctx.results.add({
    group: 'Web app (gzip)',
    name: `Pulse route incl. lazy chunks${a.pulse.chunk ? ` (${path.basename(a.pulse.chunk)})` : ''}`,
    value: a.pulse.withLazyGz / KB,
    unit: 'KB',
    detail: `initial (entry + shell + page) ${Math.round(a.pulse.gz / KB)} KB; lazy: ${a.pulse.lazyFiles.join(', ') || 'none'}`,
    target: '<= 450 KB',
    met: a.pulse.withLazyGz <= 450 * KB,
    note,
  });
  ctx.shared.routesGz = a.routes;
  await measureWebVitals(ctx, server);
}

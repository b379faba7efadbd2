import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/**
 * Vite plugin (build, `BUNDLE_REPORT=<file>`): writes, per output chunk, its modules with their rendered
 * size and the gzip size of their rendered code alone (an upper bound: a chunk compresses better than its
 * parts), largest first, and each chunk's static and dynamic imports. To see what a route's chunks carry
 * before moving code between them (docs/web.md "Bundle").
 */
export function bundleReport(file: string | undefined) {
  return {
    name: 'vigil-bundle-report',
    apply: 'build' as const,
    generateBundle(
      _options: unknown,
      bundle: Record<
        string,
        {
          type: string;
          fileName: string;
          imports?: string[];
          dynamicImports?: string[];
          modules?: Record<string, { code: string | null; renderedLength: number }>;
        }
      >,
    ) {
      if (!file) return;
      const chunks = Object.values(bundle)
        .filter((c) => c.type === 'chunk')
        .map((c) => {
          const modules = Object.entries(c.modules ?? {})
            .map(([id, m]) => ({
              id: id.replace(/^.*node_modules[\\/]/, '~/').replace(/^.*[\\/]apps[\\/]web[\\/]/, ''),
              raw: m.renderedLength,
              gz: m.code ? gzipSync(m.code).length : 0,
            }))
            .filter((m) => m.raw > 0)
            .sort((a, b) => b.gz - a.gz);
          return { file: c.fileName, imports: c.imports ?? [], dynamicImports: c.dynamicImports ?? [], modules };
        });
      writeFileSync(file, JSON.stringify(chunks, null, 1));
    },
  };
}

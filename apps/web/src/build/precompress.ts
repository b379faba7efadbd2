import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Files worth compressing: text assets above this size (smaller ones gain less than the headers cost). */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of a built `dist` (the server serves
 * them with @fastify/static's `preCompressed`, so the assets are compressed once at build time, at the
 * highest levels, instead of per request or not at all). A variant is kept only when it is smaller.
 * Returns the files written, relative to `dir`.
 */
export function precompressDir(dir: string): string[] {
  const written: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const file = path.join(d, name);
      const stat = statSync(file);
      if (stat.isDirectory()) walk(file);
      else if (COMPRESSIBLE.test(name) && stat.size >= MIN_BYTES) {
        const raw = readFileSync(file);
        const br = brotliCompressSync(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        const gz = gzipSync(raw, { level: 9 });
        for (const [ext, data] of [
          ['.br', br],
          ['.gz', gz],
        ] as const) {
          if (data.length >= raw.length) continue;
          writeFileSync(file + ext, data);
          written.push(path.relative(dir, file + ext));
        }
      }
    }
  };
  walk(dir);
  return written;
}

/** Vite plugin: precompress the build output once it is written. */
export function precompress() {
  let outDir = 'dist';
  return {
    name: 'vigil-precompress',
    apply: 'build' as const,
    configResolved(config: { root: string; build: { outDir: string } }) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('precompressDir', () => {
  it('writes .br and .gz beside each compressible asset, decoding to the same bytes', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-precompress-'));
    mkdirSync(path.join(dir, 'assets'));
    const js = `export const a = ${JSON.stringify('abc '.repeat(2000))};`;
    const css = `.a{color:red}\n`.repeat(200);
    writeFileSync(path.join(dir, 'assets', 'app.js'), js);
    writeFileSync(path.join(dir, 'assets', 'app.css'), css);
    writeFileSync(path.join(dir, 'assets', 'tiny.js'), 'export {};');
    writeFileSync(path.join(dir, 'assets', 'logo.png'), Buffer.alloc(4096, 1));

    const written = precompressDir(dir).sort();

    expect(written).toEqual(['assets/app.css.br', 'assets/app.css.gz', 'assets/app.js.br', 'assets/app.js.gz']);
    expect(brotliDecompressSync(readFileSync(path.join(dir, 'assets', 'app.js.br'))).toString()).toBe(js);
    expect(gunzipSync(readFileSync(path.join(dir, 'assets', 'app.js.gz'))).toString()).toBe(js);
    expect(brotliDecompressSync(readFileSync(path.join(dir, 'assets', 'app.css.br'))).toString()).toBe(css);
    expect(readFileSync(path.join(dir, 'assets', 'app.js.br')).length).toBeLessThan(js.length / 10);
    // Too small to gain, or not text: left alone.
    expect(existsSync(path.join(dir, 'assets', 'tiny.js.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'assets', 'logo.png.br'))).toBe(false);
  });
});

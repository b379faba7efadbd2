import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebApp } from './web-app.ts';

/** The built web app over HTTP: precompressed assets for browsers that accept them, the plain file otherwise. */
let app: FastifyInstance;
let base: string;
let dist: string;
const script = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
const html = '<!doctype html><html><head><title>Vigil</title></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'vigil-web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), html);
  writeFileSync(path.join(dist, 'assets', 'app-abc.js'), script);
  writeFileSync(path.join(dist, 'assets', 'app-abc.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dist, 'assets', 'app-abc.js.gz'), gzipSync(script));
  writeFileSync(path.join(dist, 'assets', 'plain-abc.js'), script);
  app = Fastify();
  await registerWebApp(app, dist);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

/** fetch() would decode the body itself: read the raw bytes and headers with node:http instead. */
async function get(
  p: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(`${base}${p}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('web app assets', () => {
  it('sends the brotli file to a browser that accepts br, as JavaScript, cached for a year', async () => {
    const res = await get('/assets/app-abc.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers['content-type'])).toMatch(/javascript/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('sends the gzip file to a browser that accepts gzip only', async () => {
    const res = await get('/assets/app-abc.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe(script);
  });

  it('sends the plain file when no encoding is accepted or none was built', async () => {
    const identity = await get('/assets/app-abc.js', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(script);
    const plain = await get('/assets/plain-abc.js', 'gzip, br');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('still answers index.html for app paths and 404 for a stale chunk name', async () => {
    const page = await get('/dashboards/pulse', 'gzip, br');
    expect(page.status).toBe(200);
    const body =
      page.headers['content-encoding'] === 'br'
        ? brotliDecompressSync(page.body)
        : page.headers['content-encoding'] === 'gzip'
          ? gunzipSync(page.body)
          : page.body;
    expect(body.toString()).toBe(html);
    expect((await get('/assets/gone-123.js', 'gzip, br')).status).toBe(404);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startServer, type RunningServer } from './server.ts';

const dirs: string[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('HOST', () => {
  it('is the address the server listens on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-host-'));
    dirs.push(dir);
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dir,
      SEED: 'none',
      SIMULATOR: 'off',
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    });
    const server = await startServer(config, { log: pino({ level: 'silent' }), jobs: false, rateLimit: false });
    servers.push(server);
    const address = server.app.server.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
  }, 60_000);
});

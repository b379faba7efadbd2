import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-e2e-restart-'));
const account = { name: 'Rita Restart', email: 'rita.restart@example.com', phone: '555-0199', password: 'a-durable-password-1' };
let server: StartedServer;

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  server = await startConsole({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the console as a user starts it', () => {
  it('serves the web app with SPA fallback and the API under /v0', async () => {
    const deep = await fetch(`${server.url}/dashboards/portals/12`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<div id="root">');
    const root = await fetch(server.url);
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<div id="root">');
    expect((await fetch(`${server.url}/assets/no-such-chunk.js`)).status).toBe(404);
    const api = await fetch(`${server.url}/v0/api/unknown`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('renders the landing page in Chromium under its CSP', async () => {
    const browser = await launchBrowser();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(server.url);
    await expect.poll(() => page.getByText('TO LOG IN').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshot(page, 'landing-desktop');
    await browser.close();
    expect(errors).toEqual([]);
  });

  it('keeps data in DATA_DIR across a graceful restart', async () => {
    const registered = await post(`${server.url}/v0/auth/register`, account);
    expect(registered.status, await registered.clone().text()).toBe(201);
    // SIGINT (Ctrl-C) finishes in-flight work and closes the database cleanly: exit code 0.
    expect(await server.stop('SIGINT')).toBe(0);
    server = await startConsole({ DATA_DIR: dataDir });
    const login = await post(`${server.url}/v0/auth/login`, { email: account.email, password: account.password });
    expect(login.status, `${await login.clone().text()}\n${server.output()}`).toBe(200);
    expect(((await login.json()) as { data: { accessToken: string } }).data.accessToken).toBeTruthy();
  });

  it('shuts down cleanly on SIGTERM', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).not.toMatch(/unhandled|failed to start/i);
  });
});

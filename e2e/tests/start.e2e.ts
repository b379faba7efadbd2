import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';

let server: StartedServer;
beforeAll(async () => {
  server = await startConsole();
});
afterAll(async () => {
  await server?.stop();
});

describe('the console as a user starts it', () => {
  it('serves the web app with SPA fallback and the API under /v0', async () => {
    const deep = await fetch(`${server.url}/dashboards/portals/12`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<div id="root">');
    const api = await fetch(`${server.url}/v0/api/unknown`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('NOT_FOUND');
  });

  it('renders the landing page in Chromium under its CSP', async () => {
    const browser = await launchBrowser();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(server.url);
    await expect.poll(() => page.getByText('TO LOG IN').count()).toBeGreaterThan(0);
    await screenshot(page, 'landing-desktop');
    await browser.close();
    expect(errors).toEqual([]);
  });

  it('keeps data across restarts and shuts down cleanly on SIGTERM', async () => {
    const code = await server.stop('SIGTERM');
    expect(code).toBe(0);
    expect(server.output()).not.toMatch(/failed|unhandled/i);
  });
});

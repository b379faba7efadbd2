import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { signIn } from '../support/web.ts';
import { contrastProblems } from './contrast-check.ts';
import { layoutProblems, settled } from './layout-check.ts';
import { buildWorld, passwordOf, ROOT, routesOf, type Who, type World } from './roles-support.ts';

/**
 * Every dashboard route as every kind of user at 1440 px and 769 px: no table cut off in its card
 * (at 1440 px every table fits; at 769 px a table may scroll inside its card with a visible
 * scrollbar), no page wider than the window, no error toast and no red error panel from a page load.
 * Every page again in dark mode at 1440 px, and both themes' text readable (contrast-check.ts).
 * With SHOTS_DIR set, a screenshot of each (1440, 769 and 1440 dark).
 */
const SHOTS = process.env.SHOTS_DIR;
const WHO: Who[] = ['superAdmin', 'Admin', 'Project Manager', 'Salesman', 'no tenant', 'empty tenant Admin'];

let server: StartedServer;
let browser: Browser;
let world: World;

beforeAll(async () => {
  server = await startConsole({ LOG_LEVEL: 'info', SUPERADMIN_EMAIL: ROOT.email, SUPERADMIN_PASSWORD: ROOT.password });
  // Scrollbars as a user sees them (headless Chromium hides them by default).
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    ignoreDefaultArgs: ['--hide-scrollbars'],
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  world = await buildWorld(server);
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function setTheme(page: Page, mode: 'light' | 'dark') {
  await page.evaluate((m) => {
    const root = JSON.parse(localStorage.getItem('persist:root') ?? '{}') as Record<string, string>;
    root.theme = JSON.stringify({ mode: m });
    localStorage.setItem('persist:root', JSON.stringify(root));
  }, mode);
}

const shotName = (who: Who, route: string, suffix: string) =>
  path.join(SHOTS!, `${who.replace(/\s+/g, '-')}${route.replace(/\//g, '_')}-${suffix}.png`);

describe('every route fits at 1440 px and 769 px', () => {
  for (const who of WHO) {
    it(`as ${who}`, async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await signIn(page, server.url, world.emails[who], passwordOf(who));
      const found: string[] = [];
      // Only the toasts a page load raises count: sign-in's welcome toast is gone by then.
      await page.evaluate(() => document.querySelectorAll<HTMLElement>('.ant-notification-notice-close').forEach((b) => b.click()));
      const routes = who === 'empty tenant Admin' ? ['/dashboards/pulse', '/dashboards/portals', '/dashboards/cases'] : routesOf(world);
      for (const route of routes) {
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.goto(server.url + route);
        if (!(await settled(page))) found.push(`${route} [loading] still loading after a minute`);
        const at = new URL(page.url()).pathname;
        for (const p of await layoutProblems(page, true)) found.push(`${route} @1440 [${p.kind}] ${p.detail}`);
        const errorToasts = await page.locator('.ant-notification-notice-error').allTextContents();
        for (const t of errorToasts) found.push(`${route} @1440 [toast] ${t}`);
        const panels = await page.locator('.ant-alert-error').allTextContents();
        for (const t of panels) found.push(`${route} @1440 [error panel] ${t}`);
        for (const c of await contrastProblems(page))
          found.push(`${route} @1440 [contrast ${c.ratio}] "${c.text}" ${c.where}: ${c.colors}`);
        if (SHOTS) await page.screenshot({ path: shotName(who, at === route ? route : `${route}->${at}`, '1440'), fullPage: true });
        await page.setViewportSize({ width: 769, height: 900 });
        await settled(page);
        for (const p of await layoutProblems(page, false)) found.push(`${route} @769 [${p.kind}] ${p.detail}`);
        if (SHOTS) await page.screenshot({ path: shotName(who, route, '769'), fullPage: true });
        // Dark mode: the same page must stay readable (contrast-check.ts).
        await setTheme(page, 'dark');
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.reload();
        await settled(page);
        if (!(await page.evaluate(() => document.documentElement.dataset.theme === 'dark')))
          found.push(`${route} [dark] the dark theme is not applied`);
        for (const c of await contrastProblems(page))
          found.push(`${route} @1440 dark [contrast ${c.ratio}] "${c.text}" ${c.where}: ${c.colors}`);
        if (SHOTS) await page.screenshot({ path: shotName(who, route, '1440-dark'), fullPage: true });
        await setTheme(page, 'light');
      }
      await context.close();
      expect(found).toEqual([]);
    }, 600_000);
  }
});

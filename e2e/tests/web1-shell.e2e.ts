import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { apiPost, apiToken, shootBoth, signIn, watchErrors, poll } from '../support/web.ts';

const ROOT = { email: 'root@vigil.test', password: 'platform-root-pass-1' };
let server: StartedServer;
let browser: Browser;
beforeAll(async () => {
  server = await startConsole({ SUPERADMIN_EMAIL: ROOT.email, SUPERADMIN_PASSWORD: ROOT.password });
  browser = await launchBrowser();
  const token = await apiToken(server.url, ROOT.email, ROOT.password);
  await apiPost(server.url, '/v0/api/tenants', token, {
    name: 'Harbor Guard',
    contactName: 'Hal Port',
    email: 'hal@harbor.test',
    phone: '555 0110',
    address: '2 Quay',
    goalScore: 95,
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Replaces the stored access token (redux-persist keeps the auth slice as JSON inside 'persist:root'). */
async function replaceStoredAccessToken(page: Page, make: (token: string) => string) {
  await page.evaluate((src) => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- page.evaluate passes only serializable arguments: the function comes as its source
    const change = new Function('token', `return (${src})(token)`) as (t: string) => string;
    const root = JSON.parse(localStorage.getItem('persist:root')!) as { auth: string };
    const auth = JSON.parse(root.auth) as { accessTaken: string };
    auth.accessTaken = change(auth.accessTaken);
    root.auth = JSON.stringify(auth);
    localStorage.setItem('persist:root', JSON.stringify(root));
  }, make.toString());
}

describe('the shell and the session', () => {
  it('public pages render under the CSP with titles, at 1440 and 769 px', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    for (const [path, name, title] of [
      ['/', 'landing', 'Security device monitoring · Vigil'],
      ['/why-us', 'why-us', 'Why Vigil · Vigil'],
      ['/pricing', 'pricing', 'Pricing · Vigil'],
      ['/about', 'about', 'About · Vigil'],
      ['/contact', 'contact', 'Contact · Vigil'],
      ['/auth/signin', 'signin', 'Sign in · Vigil'],
      ['/auth/signup', 'signup', 'Sign up · Vigil'],
      ['/auth/password-reset', 'password-reset', 'Reset password · Vigil'],
      ['/auth/welcome', 'welcome', 'Welcome · Vigil'],
      ['/auth/account-delete', 'account-delete', 'Account · Vigil'],
    ] as const) {
      await page.goto(server.url + path);
      await poll(() => page.title()).toBe(title);
      await page.waitForTimeout(300);
      await shootBoth(page, name);
    }
    await page.goto(server.url);
    await page.getByRole('button', { name: 'TO LOG IN' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/auth/signin');
    await poll(() => page.getByRole('link', { name: 'Forgot password' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('unknown paths and dashboards without a session', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${server.url}/no/such/page`);
    await poll(() => page.getByText('Oops! Sorry, an unexpected error has occurred.').count()).toBe(1);
    expect(await page.getByText('404 Not Found: /no/such/page').count()).toBe(1);
    await shootBoth(page, 'oops');
    await page.goto(`${server.url}/dashboards/users`);
    await poll(() => new URL(page.url()).pathname).toBe('/auth/signin');
  });

  it('an expired access token is refreshed transparently (one refresh, data still loads)', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    await signIn(page, server.url, ROOT.email, ROOT.password);
    await poll(() => page.getByRole('link', { name: 'Harbor Guard' }).count()).toBe(1);

    // Same claims, expired an hour ago (and so no longer validly signed): the server answers 401.
    await replaceStoredAccessToken(page, (token) => {
      const [h, p, s] = token.split('.');
      const claims = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number };
      claims.exp = Math.floor(Date.now() / 1000) - 3600;
      const body = btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
      return `${h}.${body}.${s}`;
    });
    const refreshes: number[] = [];
    const unauthorized: string[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/v0/auth/refresh')) refreshes.push(r.status());
      if (r.status() === 401) unauthorized.push(r.url());
    });
    await page.reload();
    await poll(() => page.getByRole('link', { name: 'Harbor Guard' }).count()).toBe(1);
    expect(unauthorized.length).toBeGreaterThan(0);
    expect(refreshes).toEqual([200]);
    expect(new URL(page.url()).pathname).toBe('/dashboards/tenants');
    expect(await page.getByText('Unauthorized. Please login again.').count()).toBe(0);

    // The theme toggle switches to the dark algorithm and is remembered across reloads.
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.reload();
    await poll(() => page.getByRole('link', { name: 'Harbor Guard' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await shootBoth(page, 'tenants-dark');
    await page.getByRole('button', { name: 'Alarms' }).click();
    await poll(() => page.getByRole('dialog', { name: 'Recent alerts' }).count()).toBe(1);
    await shootBoth(page, 'alarms-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(errors).toEqual([]);
  });

  it('at 769 px the navigation is a drawer that closes by tapping outside', async () => {
    const page = await browser.newPage({ viewport: { width: 769, height: 900 } });
    await signIn(page, server.url, ROOT.email, ROOT.password);
    const drawerMenu = page.locator('.ant-drawer-open').getByRole('menuitem', { name: 'Tenants' });
    expect(await drawerMenu.count()).toBe(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await poll(() => drawerMenu.isVisible()).toBe(true);
    const box = await page.locator('.ant-drawer-open .ant-drawer-section, .ant-drawer-open .ant-drawer-content').first().boundingBox();
    expect(Math.round(box!.width)).toBe(Math.round(769 * 0.95));
    await screenshot769(page, 'drawer-open');
    await page.mouse.click(760, 450);
    await poll(() => page.locator('.ant-drawer-open').count()).toBe(0);
  });
});

async function screenshot769(page: Page, name: string) {
  const { screenshot } = await import('../support/browser.ts');
  await screenshot(page, `web1-${name}-769`);
}

import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import type { StartedServer } from './server.ts';

/** The newest mailed link of a kind, read from the server log (no SMTP_URL: mail goes to the outbox and the log at info level). */
export async function mailedLink(server: StartedServer, kind: 'verify-email' | 'password-confirmation', email?: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const lines = server
          .output()
          .split('\n')
          .filter((l) => l.includes(`/auth/${kind}?token=`) && (!email || l.includes(email)));
        const last = lines.at(-1);
        const match = last?.match(new RegExp(`/auth/${kind}\\?token=([A-Za-z0-9_\\-.~%]+)`));
        found = match ? `/auth/${kind}?token=${match[1]}` : undefined;
        return found;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return found!;
}

/**
 * Clicks what opens an antd dialog and returns the dialog once it has settled: present, and its opening
 * motion over (no zoom class, no running animation). During that motion the panel is first laid out at
 * full size but transparent, then scaled from nearly nothing: a click aimed at one of its buttons can
 * pass Playwright's checks in the first step and land in the second on the wrapper around the panel,
 * which closes the dialog like a click on the mask (a loaded machine widens that window). So a test
 * clicks inside a dialog only after this.
 */
export async function openDialog(page: Page, opener: Locator, hasText: string): Promise<Locator> {
  await opener.click();
  return settledDialog(page, hasText);
}

/**
 * The dialog holding `hasText` once its opening motion has ended. A dialog opens with a zoom: a click aimed
 * during it can land beside its target (the wrap takes it) and be lost, so clicks inside a dialog wait for
 * this, whether the dialog was opened by the test (openDialog) or by the page (a result dialog).
 */
export async function settledDialog(page: Page, hasText: string): Promise<Locator> {
  return settled(page.getByRole('dialog').filter({ hasText }));
}

/** The open confirmation popover (holding `hasText`, when given) once its opening motion has ended, as settledDialog. */
export async function settledPopconfirm(page: Page, hasText?: string): Promise<Locator> {
  const popconfirm = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
  return settled(hasText ? popconfirm.filter({ hasText }) : popconfirm);
}

async function settled(overlay: Locator): Promise<Locator> {
  const still = () =>
    overlay
      .evaluate(
        // Spinners (a select still loading its options) animate forever: only the opening motion counts.
        (el: Element) =>
          !/-(appear|enter)\b/.test(el.className) &&
          el.getAnimations({ subtree: true }).every((a) => a.effect?.getTiming().iterations === Infinity),
        undefined,
        { timeout: 1000 },
      )
      .catch(() => false);
  await expect.poll(still, { timeout: 15_000, interval: 50 }).toBe(true);
  return overlay;
}

/** Collects page errors and console errors (CSP violations show up there). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // HTTP failures are the API's business (and asserted where they matter); script errors and CSP refusals are ours.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console: ${m.text()}`);
  });
  return errors;
}

export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/auth/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await poll(() => page.getByText('Welcome! You’ve successfully logged in.').count()).toBeGreaterThan(0);
  // redux-persist writes the session to localStorage on later timer ticks, one state key per tick: a
  // test that navigates right after the toast can, on a loaded machine, load the app before the write
  // and find itself signed out. So sign-in ends once the stored session holds the access token.
  await poll(() => page.evaluate(storedAccessToken)).toBe(true);
}

/** Whether the session stored in the browser (redux-persist's `persist:root`, its auth slice) holds an access token. */
function storedAccessToken(): boolean {
  try {
    const root = JSON.parse(localStorage.getItem('persist:root') ?? '{}') as { auth?: string };
    return Boolean((JSON.parse(root.auth ?? '{}') as { accessTaken?: string }).accessTaken);
  } catch {
    return false;
  }
}

export async function signOut(page: Page): Promise<void> {
  // Toasts stack at the top right, over the account menu (and a hovered stack stays): close them first.
  await closeToasts(page);
  const item = page.getByRole('menuitem', { name: 'logout' });
  // The menu opens with a motion, like a dialog (openDialog): a click aimed during it can land beside the
  // item and only close the menu, and the page stays. So the item is clicked once its menu has settled,
  // and the menu opened again until the page has left.
  const menuSettled = () =>
    item
      .evaluate(
        (el: Element) => {
          const menu = el.closest('.ant-dropdown');
          return !!menu && !/-(appear|enter|leave)\b/.test(menu.className) && menu.getAnimations({ subtree: true }).length === 0;
        },
        undefined,
        { timeout: 500 },
      )
      .catch(() => false);
  const signedOut = () => new URL(page.url()).pathname === '/';
  await expect
    .poll(
      async () => {
        if (signedOut()) return true;
        if (!(await item.isVisible()))
          await page
            .getByRole('button', { name: /Account menu/ })
            .first()
            .click({ timeout: 2_000 })
            .catch(() => {});
        else if (await menuSettled()) await item.click({ timeout: 2_000 }).catch(() => {});
        return signedOut();
      },
      { timeout: 30_000, interval: 300 },
    )
    .toBe(true);
}

/**
 * Closes every toast and waits until none is left on the page. A toast can still arrive after a first
 * round of clicks (the answer to the action just before, under load): each check closes what is there.
 */
export async function closeToasts(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await poll(() =>
    page.evaluate(() => {
      document.querySelectorAll<HTMLElement>('.ant-notification-notice-close').forEach((b) => b.click());
      // A closed toast leaves with a fade, and under load Chromium has left one in its fade-leave-active
      // state for good (CI, 2026-12-03: "Channel deleted." stuck 15 s): one leaving is closed, hidden so
      // it cannot cover the account menu; React removes it when its motion ends.
      document.querySelectorAll<HTMLElement>('.ant-notification-fade-leave').forEach((n) => (n.style.display = 'none'));
      return document.querySelectorAll('.ant-notification-notice:not(.ant-notification-fade-leave)').length;
    }),
  ).toBe(0);
}

/** Screenshots of the current page at 1440 px and 769 px wide (saved to .artifacts/screenshots/). */
export async function shootBoth(page: Page, name: string): Promise<void> {
  const original = page.viewportSize() ?? { width: 1440, height: 900 };
  // Close the toasts so they do not hide the header in the picture.
  await closeToasts(page);
  for (const width of [1440, 769]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(400);
    await screenshot(page, `web1-${name}-${width}`);
  }
  await page.setViewportSize(original);
}

/** Signs in through the API (setup only; the UI flows under test sign in through the page). */
export async function apiToken(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/v0/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

export async function apiPost<T>(base: string, path: string, token: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** expect.poll with a timeout that fits a browser (vitest's default is one second). */
export function poll<T>(fn: () => T | Promise<T>, timeout = 15_000) {
  return expect.poll(fn, { timeout, interval: 100 });
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { MAINT_MSG } from '@vigil/contracts';
import { launchBrowser, SCREENSHOT_DIR } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { apiPost, openDialog, poll, settledPopconfirm, signIn, signOut, watchErrors } from '../support/web.ts';
import { ADMIN_PASSWORD, createPortal, reportDevices, ROOT, setUpTenant, type Portal, addUser, tenantIdOf } from './web2-support.ts';

/**
 * Maintenance windows in Chromium against the real console (docs/web-pages.md "Maintenance windows"): an
 * Admin meets the dialog's validation, schedules a window for a whole portal from the portal page, sees it
 * "In progress", the devices' blue Maintenance dot and the device page's "In maintenance", edits it, and
 * deletes it after the confirmation; a Salesman reads the windows without Schedule, Edit or Delete.
 * Screenshots of the card and the dialog at 1440 and 769 px, light and dark.
 */
let server: StartedServer;
let browser: Browser;
let admin: { email: string; token: string };
let salesmanEmail: string;
let harbor: Portal;
const SALESMAN_PASSWORD = 'maint-sales-pass-1';

beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  server = await startConsole({ LOG_LEVEL: 'info', SUPERADMIN_EMAIL: ROOT.email, SUPERADMIN_PASSWORD: ROOT.password });
  browser = await launchBrowser();
  admin = await setUpTenant(server, 'Harbor Security');
  harbor = await createPortal(server, admin.token, 'Harbor View Hotel');
  await reportDevices(harbor, [
    { externalId: 'cam-gate', name: 'Gate Camera', deviceType: 0, deviceModel: 'Axis P3245', status: 1 },
    { externalId: 'int-lobby', name: 'Lobby Intercom', deviceType: 1, deviceModel: '2N IP Verso', status: 0 },
  ]);
  salesmanEmail = `sales-${Date.now()}@maint.test`;
  await addUser(server, tenantIdOf(admin.token), {
    name: 'Sid Seller',
    email: salesmanEmail,
    phone: '+1 555 0102',
    roles: ['Salesman'],
    password: SALESMAN_PASSWORD,
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const toast = (page: Page, text: string) => page.locator('.ant-notification-notice').filter({ hasText: text });
const card = (page: Page) => page.getByTestId('maintenance-card');
const windowRows = (page: Page) => card(page).locator('tbody tr.ant-table-row');
const deviceRow = (page: Page, name: string) =>
  page.locator('.ant-card').filter({ hasText: 'Last Check-in' }).locator('.ant-table-row').filter({ hasText: name });

/** A datetime-local value moved by whole hours (the wall clock of the dialog's zone, read as plain fields). */
function shiftLocal(value: string, hours: number): string {
  const ms = Date.parse(`${value}:00Z`) + hours * 3_600_000;
  return new Date(ms).toISOString().slice(0, 16);
}

/** Sets the persisted theme and reloads (what the ThemeToggle writes). */
async function setTheme(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await page.evaluate((m) => {
    const root = JSON.parse(localStorage.getItem('persist:root') ?? '{}') as Record<string, string>;
    root.theme = JSON.stringify({ mode: m });
    localStorage.setItem('persist:root', JSON.stringify(root));
  }, mode);
  await page.reload();
}

/** The card and the open dialog at 1440 and 769 px, light and dark: maintenance-<card|dialog>-<width>-<mode>.png. */
async function shootCardAndDialog(page: Page): Promise<void> {
  for (const mode of ['light', 'dark'] as const) {
    await setTheme(page, mode);
    for (const width of [1440, 769]) {
      await page.setViewportSize({ width, height: 900 });
      await poll(() => windowRows(page).count()).toBeGreaterThan(0);
      await page.evaluate(() => document.querySelectorAll<HTMLElement>('.ant-notification-notice-close').forEach((b) => b.click()));
      await card(page).scrollIntoViewIfNeeded();
      await card(page).screenshot({ path: path.join(SCREENSHOT_DIR, `maintenance-card-${width}-${mode}.png`) });
      const dialog = await openDialog(page, card(page).getByRole('button', { name: 'Schedule Maintenance' }), 'Repeats');
      await dialog
        .locator('.ant-modal-container')
        .screenshot({ path: path.join(SCREENSHOT_DIR, `maintenance-dialog-${width}-${mode}.png`) });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await poll(() => page.getByRole('dialog').filter({ hasText: 'Repeats' }).isVisible()).toBe(false);
    }
  }
  await setTheme(page, 'light');
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function fill(field: Locator, value: string) {
  await field.fill(value);
  await poll(() => field.inputValue()).toBe(value);
}

describe('maintenance windows', () => {
  it('an Admin schedules a window for the whole portal, sees it in force on the devices, edits and deletes it', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    await signIn(page, server.url, admin.email, ADMIN_PASSWORD);
    await page.goto(`${server.url}/dashboards/portals/${harbor.id}`);
    await poll(() => card(page).getByText('No maintenance scheduled.', { exact: false }).count()).toBe(1);
    await poll(() => deviceRow(page, 'Lobby Intercom').innerText()).toContain('Offline');

    const dialog = await openDialog(page, card(page).getByRole('button', { name: 'Schedule Maintenance' }), 'Repeats');
    const starts = dialog.getByLabel('Starts', { exact: true });
    const ends = dialog.getByLabel('Ends', { exact: true });
    // The dialog proposes the next whole hour in the tenant's zone, for two hours.
    const proposed = await starts.inputValue();
    expect(proposed).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00$/);
    expect(await ends.inputValue()).toBe(shiftLocal(proposed, 2));

    // End before start: the server's text, before any call.
    await fill(ends, shiftLocal(proposed, -1));
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await poll(() => dialog.getByText(MAINT_MSG.order).count()).toBe(1);

    // From two hours before the proposed start (so before now) to one hour after it: in force now.
    await fill(starts, shiftLocal(proposed, -2));
    await fill(ends, shiftLocal(proposed, 1));
    await poll(() => dialog.getByText(MAINT_MSG.order).count()).toBe(0);
    await dialog.getByLabel('Reason').fill('Firmware upgrade');
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await poll(() => toast(page, MAINT_MSG.created).count()).toBeGreaterThan(0);

    await poll(() => windowRows(page).count()).toBe(1);
    const row = windowRows(page).first();
    await poll(() => row.innerText()).toMatch(/All devices[\s\S]*None[\s\S]*In progress[\s\S]*Firmware upgrade[\s\S]*Dana Whitfield/);
    // Both devices show the third status, the offline one too (it raises no alert while covered).
    await poll(() => deviceRow(page, 'Gate Camera').innerText()).toContain('Maintenance');
    await poll(() => deviceRow(page, 'Lobby Intercom').innerText()).toContain('Maintenance');

    await shootCardAndDialog(page);

    // Edit: the dialog shows the window's times in the same zone; the reason changes.
    const edit = await openDialog(page, row.getByRole('button', { name: /^Edit maintenance window/ }), 'Repeats');
    expect(await edit.getByLabel('Starts', { exact: true }).inputValue()).toBe(shiftLocal(proposed, -2));
    expect(await edit.getByLabel('Ends', { exact: true }).inputValue()).toBe(shiftLocal(proposed, 1));
    await edit.getByLabel('Reason').fill('Firmware upgrade, second pass');
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => toast(page, MAINT_MSG.updated).count()).toBeGreaterThan(0);
    await poll(() => windowRows(page).first().innerText()).toContain('second pass');

    // The device page: "In maintenance" and the window covering it.
    await deviceRow(page, 'Lobby Intercom').getByRole('link', { name: 'Lobby Intercom' }).click();
    await poll(() => new URL(page.url()).pathname).toMatch(/^\/dashboards\/devices\/\d+$/);
    await poll(() => page.getByTestId('device-status').innerText()).toMatch(/In maintenance[\s\S]*reports Offline/);
    await poll(() => windowRows(page).count()).toBe(1);
    expect(await windowRows(page).first().innerText()).toMatch(/All devices[\s\S]*In progress/);
    await page.goBack();

    // Delete, after the confirmation: the devices leave maintenance at once.
    await poll(() => windowRows(page).count()).toBe(1);
    await windowRows(page)
      .first()
      .getByRole('button', { name: /^Delete maintenance window/ })
      .click();
    const confirm = await settledPopconfirm(page, MAINT_MSG.deleteConfirm);
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await poll(() => toast(page, MAINT_MSG.deleted).count()).toBeGreaterThan(0);
    await poll(() => windowRows(page).count()).toBe(0);
    await poll(() => deviceRow(page, 'Lobby Intercom').innerText()).toContain('Offline');
    await poll(() => deviceRow(page, 'Gate Camera').innerText()).toContain('Online');
    expect(errors).toEqual([]);
    await signOut(page);
    await page.close();
  });

  it('a Salesman sees the windows without Schedule, Edit or Delete', async () => {
    const startsAt = new Date(Date.now() + 24 * 3_600_000);
    await apiPost(server.url, '/v0/api/maintenance-windows', admin.token, {
      customerId: harbor.id,
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(),
      recurrence: 'weekly',
      reason: 'Weekly camera cleaning',
    });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    await signIn(page, server.url, salesmanEmail, SALESMAN_PASSWORD);
    await page.goto(`${server.url}/dashboards/portals/${harbor.id}`);
    await poll(() => windowRows(page).count()).toBe(1);
    expect(await windowRows(page).first().innerText()).toMatch(
      /All devices[\s\S]*Weekly[\s\S]*Scheduled[\s\S]*Next:[\s\S]*Weekly camera cleaning/,
    );
    expect(await card(page).getByRole('button', { name: 'Schedule Maintenance' }).count()).toBe(0);
    expect(
      await card(page)
        .getByRole('button', { name: /maintenance window/ })
        .count(),
    ).toBe(0);
    await poll(() => deviceRow(page, 'Gate Camera').innerText()).toContain('Online');
    expect(errors).toEqual([]);
    await page.close();
  });
});

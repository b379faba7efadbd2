import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { mailedLink, openDialog, settledDialog, shootBoth, signIn, signOut, watchErrors, poll } from '../support/web.ts';

const ROOT = { email: 'root@vigil.test', password: 'platform-root-pass-1' };
let server: StartedServer;
let browser: Browser;
beforeAll(async () => {
  server = await startConsole({ LOG_LEVEL: 'info', SUPERADMIN_EMAIL: ROOT.email, SUPERADMIN_PASSWORD: ROOT.password });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the platform administrator sets up a tenant and its first user', () => {
  it('creates a tenant and a user; the invitation link sets a password; that user signs in', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    await signIn(page, server.url, ROOT.email, ROOT.password);
    await poll(() => new URL(page.url()).pathname).toBe('/dashboards/tenants');
    await poll(() => page.title()).toBe('Tenants · Vigil');

    const dialog = await openDialog(page, page.getByRole('button', { name: 'Add Tenant' }), 'Tenant Name');
    await dialog.getByRole('button', { name: 'Add Tenant' }).click();
    await poll(() => dialog.getByText('Please input tenant name').count()).toBe(1);
    await dialog.getByLabel('Tenant Name').fill('Northwind Alarms');
    await dialog.getByLabel('Contact Person').fill('Nina North');
    await dialog.getByLabel('Phone').fill('+1 555 0199');
    await dialog.getByLabel('Email').fill('office@northwind.test');
    await dialog.getByLabel('Address').fill('9 Wind Street');
    await shootBoth(page, 'add-tenant-dialog');
    await dialog.getByRole('button', { name: 'Add Tenant' }).click();
    await poll(() => page.getByText('Tenant created').count()).toBe(1);
    const created = await settledDialog(page, 'Tenant created');
    await created.locator('button.ant-btn', { hasText: 'Close' }).click();
    await poll(() => created.isVisible()).toBe(false);
    await poll(() => page.getByRole('link', { name: 'Northwind Alarms' }).count()).toBe(1);
    await shootBoth(page, 'tenants');

    await page.getByRole('link', { name: 'Northwind Alarms' }).click();
    await poll(() => page.getByLabel('Contact Person').inputValue()).toBe('Nina North');
    await page.getByLabel('Contact Person').fill('Nina Northwind');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(() => page.getByText('Tenant information updated successfully.').count()).toBeGreaterThan(0);
    // Commercial terms (superAdmin only): the free tier sticks across a reload.
    await page.getByRole('switch').click();
    // The first save's toast may still show: wait for this save's own answer before reloading.
    const termsSaved = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && /^\/v0\/api\/tenants\/\d+$/.test(new URL(r.url()).pathname),
    );
    await page.getByRole('button', { name: 'Save terms' }).click();
    expect((await termsSaved).status()).toBe(200);
    await poll(() => page.getByText('Tenant information updated successfully.').count()).toBeGreaterThan(0);
    await page.reload();
    await poll(() => page.getByRole('switch').getAttribute('aria-checked')).toBe('true');
    await shootBoth(page, 'tenant-detail');

    await page.getByRole('menuitem', { name: 'Users' }).click();
    const userDialog = await openDialog(page, page.getByRole('button', { name: 'Add User' }), 'Add New User');
    await userDialog.getByRole('button', { name: 'Add User' }).click();
    for (const text of [
      'Please select a tenant',
      'Please input full name',
      'Please input email',
      'Please input phone number',
      'Please select at least one role',
    ])
      await poll(() => userDialog.getByText(text).count()).toBe(1);
    await userDialog.getByLabel('Tenant').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Northwind Alarms' }).click();
    await userDialog.getByLabel('Full Name').fill('Sam Field');
    const email = `sam-${Date.now()}@northwind.test`;
    await userDialog.getByLabel('Email').fill(email);
    await userDialog.getByLabel('Phone Number').fill('+1 555 0142');
    await userDialog.getByLabel('Role').click();
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: /^Admin$/ })
      .click();
    await page.keyboard.press('Escape');
    await userDialog.getByRole('button', { name: 'Add User' }).click();
    await poll(() => page.getByText(`Invitation sent to ${email}.`).count()).toBeGreaterThan(0);
    await poll(() => page.getByRole('cell', { name: email }).count()).toBe(1);
    await shootBoth(page, 'users');

    await page.getByRole('button', { name: 'Edit Sam Field' }).click();
    await poll(() => page.getByLabel('First Name').inputValue()).toBe('Sam');
    await shootBoth(page, 'user-detail');

    await page.getByRole('button', { name: 'Setting' }).click();
    await poll(() => page.getByLabel('First Name').count()).toBe(1);
    expect(await page.getByRole('tab', { name: 'Tenant' }).count()).toBe(0);
    await shootBoth(page, 'settings-superadmin');
    await signOut(page);

    await page.goto(server.url + (await mailedLink(server, 'password-confirmation', email)));
    await page.getByLabel('New password').fill('field-notes-2026');
    await page.getByLabel('Confirm password').fill('field-notes-2025');
    await page.getByRole('button', { name: 'Save password' }).click();
    await poll(() => page.getByText('Passwords do not match.').count()).toBe(1);
    await page.getByLabel('Confirm password').fill('field-notes-2026');
    await shootBoth(page, 'password-confirmation');
    await page.getByRole('button', { name: 'Save password' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/auth/signin');

    await signIn(page, server.url, email, 'field-notes-2026');
    await poll(() => new URL(page.url()).pathname).toBe('/dashboards/pulse');
    await poll(() => page.getByRole('menuitem', { name: 'Users' }).count()).toBe(1);
    expect(await page.getByRole('menuitem', { name: 'Tenants' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

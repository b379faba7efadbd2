import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { mailedLink, settledDialog, shootBoth, signIn, watchErrors, poll } from '../support/web.ts';

let server: StartedServer;
let browser: Browser;
beforeAll(async () => {
  // info level: with no SMTP_URL the mailed links are printed to the log.
  server = await startConsole({ LOG_LEVEL: 'info', PAYMENTS: 'sandbox' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a company signs up and starts its trial', () => {
  it('sign up, verify by the mailed link, sign in, fill the tenant, pay in the sandbox checkout, land on Pulse', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    const email = `owner-${Date.now()}@acme.test`;
    const password = 'blue-harbor-lights-7';

    await page.goto(`${server.url}/auth/signup`);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await poll(() => page.getByText('Please input first name').count()).toBe(1);
    await page.getByLabel('First name').fill('Olivia');
    await page.getByLabel('Last name').fill('Stone');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone').fill('+1 555 0101');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill('something-else');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await poll(() => page.getByText('Please ensure passwords match!').count()).toBe(1);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await poll(() => page.getByText('Account created successfully.').count()).toBeGreaterThan(0);
    await poll(() => new URL(page.url()).pathname).toBe('/auth/signin');

    await page.goto(server.url + (await mailedLink(server, 'verify-email', email)));
    await poll(() => page.getByText('Email verified successfully.').count()).toBeGreaterThan(0);
    await shootBoth(page, 'verify-email');

    await signIn(page, server.url, email, password);
    await poll(() => new URL(page.url()).pathname).toBe('/dashboards/settings');
    await poll(() => page.title()).toBe('Settings · Vigil');
    await poll(() => page.getByRole('tab', { name: 'Tenant', selected: true }).count()).toBe(1);

    const form = page.locator('form').filter({ has: page.getByLabel('Tenant Name') });
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText('Please input tenant name').count()).toBe(1);
    await poll(() => page.getByText('Please input address').count()).toBe(1);
    await form.getByLabel('Tenant Name').fill('Acme Security');
    await form.getByLabel('Contact Person').fill('Olivia Stone');
    await form.getByLabel('Phone').fill('+1 555 0101');
    await form.getByLabel('Email').fill('ops@acme.test');
    await form.getByLabel('Address').fill('1 Harbor Way, Springfield');
    await shootBoth(page, 'settings-tenant');
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText('Tenant information updated successfully.').count()).toBeGreaterThan(0);

    const welcome = await settledDialog(page, 'Go To Payment');
    await poll(() => welcome.count()).toBe(1);
    expect(await welcome.textContent()).toContain('one-month free trial');
    expect(await welcome.textContent()).toContain('49.99 USD monthly per portal');
    await shootBoth(page, 'welcome-dialog');
    await welcome.getByRole('button', { name: 'Go To Payment' }).click();

    await poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox\/checkout\//);
    // Cancel first: back on Settings with the product's text, and the welcome dialog opens again.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await poll(() => page.getByText('Subscription setup was cancelled. You can try again later.').count(), 20_000).toBeGreaterThan(0);
    await poll(() => new URL(page.url()).pathname).toBe('/dashboards/settings');
    expect(new URL(page.url()).search).toBe('');
    await poll(() => welcome.count()).toBe(1);
    await welcome.getByRole('button', { name: 'Go To Payment' }).click();
    await poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox\/checkout\//);
    await page.getByRole('button', { name: 'Pay' }).click();

    await poll(() => page.getByText('Subscription activated successfully! Your 30-day trial has started.').count(), 20_000).toBeGreaterThan(
      0,
    );
    await poll(() => new URL(page.url()).pathname).toBe('/dashboards/pulse');
    // The new tokens carry the tenant and the Admin role: the Users menu appears.
    await poll(() => page.getByRole('menuitem', { name: 'Users' }).count()).toBe(1);
    await shootBoth(page, 'pulse-after-payment');

    // As the tenant's Admin now: Settings opens on Profile; the Tenant tab holds the saved tenant.
    await page.getByRole('button', { name: 'Setting' }).click();
    await poll(() => page.getByRole('tab', { name: 'Profile', selected: true }).count()).toBe(1);
    await page.getByRole('tab', { name: 'Tenant' }).click();
    await poll(() => page.getByLabel('Tenant Name').inputValue()).toBe('Acme Security');
    await poll(() => page.getByLabel('Heartbeat timeout').inputValue()).toBe('10');
    await shootBoth(page, 'settings-admin');
    expect(errors).toEqual([]);
  });
});

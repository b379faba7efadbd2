import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { NOTIFY_MSG } from '@vigil/contracts';
import { launchBrowser } from '../support/browser.ts';
import { freePort } from '../support/free-port.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { openDialog, poll, settledDialog, settledPopconfirm, signIn, signOut, watchErrors } from '../support/web.ts';
import { ADMIN_PASSWORD, ROOT, setUpTenant, addUser, tenantIdOf } from './web2-support.ts';

/**
 * Notification channels in Chromium against the real console (docs/web-pages.md "Notifications"): an Admin
 * adds a webhook channel through the dialog (its validation messages first), toggles it, sends a test
 * that a local receiver gets signed with the channel's secret, reads it in the delivery log and deletes
 * the channel after the confirm; a Salesman sees the channels read-only.
 */
let server: StartedServer;
let browser: Browser;
let receiver: Server;
let receiverUrl: string;
let adminEmail: string;
let salesmanEmail: string;
const SALESMAN_PASSWORD = 'notify-sales-pass-1';
const received: { headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  const port = await freePort();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${port}/hooks/vigil`;

  // The receiver is on loopback: private targets are allowed for this console only.
  server = await startConsole({
    LOG_LEVEL: 'info',
    SUPERADMIN_EMAIL: ROOT.email,
    SUPERADMIN_PASSWORD: ROOT.password,
    NOTIFY_ALLOW_PRIVATE_TARGETS: '1',
  });
  browser = await launchBrowser();
  const admin = await setUpTenant(server, 'Beacon Alarms');
  adminEmail = admin.email;
  salesmanEmail = `sales-${Date.now()}@notify.test`;
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
  await new Promise((resolve) => receiver?.close(resolve));
});

const toast = (page: Page, text: string) => page.locator('.ant-notification-notice').filter({ hasText: text });
const row = (page: Page, name: string) => page.locator('.ant-table-row').filter({ hasText: name });

async function openNotificationsTab(page: Page) {
  await page.goto(`${server.url}/dashboards/settings`);
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await poll(() => page.getByRole('button', { name: 'Delivery log' }).count()).toBe(1);
}

describe('notification channels in Settings', () => {
  it('an Admin adds a webhook channel, toggles it, tests it, reads the delivery log and deletes it', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    await signIn(page, server.url, adminEmail, ADMIN_PASSWORD);
    await openNotificationsTab(page);
    // Every new tenant starts with the Admins email channel.
    await poll(() => row(page, 'Admins').count()).toBe(1);

    const dialog = await openDialog(page, page.getByRole('button', { name: 'Add Channel' }), 'Webhook URL');
    await dialog.getByRole('button', { name: 'Add Channel' }).click();
    await poll(() => dialog.getByText(NOTIFY_MSG.name).count()).toBe(1);
    await poll(() => dialog.getByText(NOTIFY_MSG.urlTarget).count()).toBe(1);
    await dialog.getByLabel('Name').fill('Ops hook');
    await dialog.getByLabel('Webhook URL').fill('hooks.example.com/no-scheme');
    await poll(() => dialog.getByText(NOTIFY_MSG.urlFormat).count()).toBe(1);
    await dialog.getByLabel('Webhook URL').fill(receiverUrl);
    await poll(() => dialog.getByText(NOTIFY_MSG.urlFormat).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Add Channel' }).click();
    await poll(() => toast(page, 'Channel added.').count()).toBeGreaterThan(0);

    const secretDialog = await settledDialog(page, 'Webhook channel added');
    const secret = (await secretDialog.getByLabel('Signing secret', { exact: true }).innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await poll(() => row(page, 'Ops hook').count()).toBe(1);

    const toggle = page.getByRole('switch', { name: 'Enable Ops hook' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await poll(() => toast(page, 'Channel disabled.').count()).toBeGreaterThan(0);
    await poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await page.reload();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await poll(() => page.getByRole('switch', { name: 'Enable Ops hook' }).getAttribute('aria-checked')).toBe('false');
    await page.getByRole('switch', { name: 'Enable Ops hook' }).click();
    await poll(() => toast(page, 'Channel enabled.').count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Test Ops hook' }).click();
    await poll(() => toast(page, NOTIFY_MSG.testSent).count()).toBeGreaterThan(0);
    await poll(() => received.length).toBeGreaterThan(0);
    const message = received.at(-1)!;
    const payload = new Webhook(secret).verify(message.body, message.headers) as { type: string };
    expect(payload.type).toBe('test');

    await page.getByRole('button', { name: 'Deliveries of Ops hook' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/dashboards/settings/notifications/deliveries');
    const delivery = page.locator('.ant-table-row').filter({ hasText: 'Ops hook' });
    await poll(() => delivery.count()).toBe(1);
    await poll(() => delivery.innerText()).toContain('Sent');
    expect(await delivery.innerText()).toContain('Test');
    await page.getByRole('button', { name: 'Notification channels' }).click();
    await poll(() => row(page, 'Ops hook').count()).toBe(1);

    await page.getByRole('button', { name: 'Delete Ops hook' }).click();
    await (await settledPopconfirm(page)).getByRole('button', { name: 'Yes' }).click();
    await poll(() => toast(page, 'Channel deleted.').count()).toBeGreaterThan(0);
    await poll(() => row(page, 'Ops hook').count()).toBe(0);
    expect(errors).toEqual([]);
    await signOut(page);
    await page.close();
  });

  it('a Salesman sees the channels read-only', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    await signIn(page, server.url, salesmanEmail, SALESMAN_PASSWORD);
    await openNotificationsTab(page);
    await poll(() => row(page, 'Admins').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Add Channel' }).count()).toBe(0);
    expect(await page.getByRole('switch').count()).toBe(0);
    for (const action of ['Edit Admins', 'Test Admins', 'Delete Admins'])
      expect(await page.getByRole('button', { name: action }).count()).toBe(0);
    expect(await row(page, 'Admins').innerText()).toContain('Enabled');
    await page.getByRole('button', { name: 'Delivery log' }).click();
    await poll(() => page.getByRole('heading', { name: 'Delivery Log' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});

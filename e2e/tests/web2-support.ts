import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from '../support/browser.ts';
import type { StartedServer } from '../support/server.ts';
import { apiPost, apiToken } from '../support/web.ts';

/** Web II end-to-end helpers: a tenant with an Admin made through the API, signed device webhooks, screenshots. */

export const ROOT = { email: 'root@vigil.test', password: 'platform-root-pass-1' };
export const ADMIN_PASSWORD = 'web2-admin-pass-1';

export interface Portal {
  id: number;
  name: string;
  webhookUrl: string;
  webhookSecret: string;
}

/** A tenant on the free tier (portals without a subscription) and its Admin, signed in through the API. */
export async function setUpTenant(server: StartedServer, tenantName: string): Promise<{ email: string; token: string }> {
  const root = await apiToken(server.url, ROOT.email, ROOT.password);
  const tenant = await apiPost<{ data: { id: number } }>(server.url, '/v0/api/tenants', root, {
    name: tenantName,
    contactName: 'Olga Owner',
    email: 'office@web2.test',
    phone: '+1 555 0100',
    address: '1 Test Street',
    goalScore: 95,
    freeTier: true,
  });
  const email = `admin-${Date.now()}@web2.test`;
  await addUser(server, tenant.data.id, {
    name: 'Dana Whitfield',
    email,
    phone: '+1 555 0101',
    roles: ['Admin'],
    password: ADMIN_PASSWORD,
  });
  return { email, token: await apiToken(server.url, email, ADMIN_PASSWORD) };
}

/** A user of a tenant, added by the superAdmin and with the password set through the mailed invitation. */
export async function addUser(
  server: StartedServer,
  tenantId: number,
  user: { name: string; email: string; phone: string; roles: string[]; password: string },
): Promise<void> {
  const root = await apiToken(server.url, ROOT.email, ROOT.password);
  const { password, ...fields } = user;
  await apiPost(server.url, '/v0/api/users', root, { tenantId, ...fields });
  const token = await invitationToken(server, user.email);
  const res = await fetch(`${server.url}/v0/auth/password-confirmation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, newPassword: password, confirmPassword: password }),
  });
  if (!res.ok) throw new Error(`password confirmation failed: ${res.status} ${await res.text()}`);
}

/** The tenant id in an access token's claims. */
export const tenantIdOf = (token: string): number =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { tenantId: number }).tenantId;

/** The invitation token mailed to `email` (read from the server log; usable outside a test, in beforeAll). */
async function invitationToken(server: StartedServer, email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const line = server
      .output()
      .split('\n')
      .filter((l) => l.includes('/auth/password-confirmation?token=') && l.includes(email))
      .at(-1);
    const match = line?.match(/\/auth\/password-confirmation\?token=([A-Za-z0-9_\-.~%]+)/);
    if (match) return decodeURIComponent(match[1]);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no invitation mailed to ${email}`);
}

export async function createPortal(server: StartedServer, token: string, name: string): Promise<Portal> {
  const body = await apiPost<{ data: Portal }>(server.url, '/v0/api/customers', token, { name, apiKey: `key-${randomUUID()}` });
  return body.data;
}

export async function getPortal(server: StartedServer, token: string, id: number): Promise<Portal> {
  const res = await fetch(`${server.url}/v0/api/customers/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: Portal }).data;
}

export interface ReportedDevice {
  externalId: string;
  name: string;
  deviceType: number;
  deviceModel: string;
  status: 0 | 1;
}

/** Posts a signed Standard Webhooks message reporting devices, as a device cloud does. */
export async function reportDevices(portal: Portal, devices: ReportedDevice[], at = new Date()): Promise<void> {
  const body = JSON.stringify({ type: 'devices.reported', data: { devices: devices.map((d) => ({ ...d, at: at.toISOString() })) } });
  const id = `msg_${randomUUID()}`;
  const res = await fetch(portal.webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(portal.webhookSecret).sign(id, at, body),
    },
    body,
  });
  if (!res.ok) throw new Error(`webhook failed: ${res.status} ${await res.text()}`);
}

/** Sets the persisted theme and reloads (the ThemeToggle writes the same state). */
async function setTheme(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await page.evaluate((m) => {
    const root = JSON.parse(localStorage.getItem('persist:root') ?? '{}') as Record<string, string>;
    root.theme = JSON.stringify({ mode: m });
    localStorage.setItem('persist:root', JSON.stringify(root));
  }, mode);
  await page.reload();
}

/** Screenshots of the current page at 1440 and 769 px, light and dark, as web2-<name>-<width>-<theme>.png. */
export async function shootAll(page: Page, name: string, settle = 1200): Promise<void> {
  const original = page.viewportSize() ?? { width: 1440, height: 900 };
  for (const mode of ['light', 'dark'] as const) {
    await setTheme(page, mode);
    for (const width of [1440, 769]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(settle);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `web2-${name}-${width}-${mode}.png`), fullPage: true });
    }
  }
  await setTheme(page, 'light');
  await page.setViewportSize(original);
}

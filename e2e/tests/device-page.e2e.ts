import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, SCREENSHOT_DIR } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { signIn, watchErrors } from '../support/web.ts';
import { ADMIN_PASSWORD, createPortal, ROOT, setUpTenant, shootAll, type Portal } from './web2-support.ts';

/**
 * The device page (docs/history.md) in Chromium against the real console: a device name opens it,
 * its identity, reliability per range, status timeline with hover, recent changes; the trend cards
 * of the portal page and Pulse; another tenant's device is not found. Screenshots at 1440 and 769 px,
 * light and dark.
 */
let server: StartedServer;
let browser: Browser;
let page: Page;
let errors: string[];
let admin: { email: string; token: string };
let harbor: Portal;
let foreignDeviceId: number;
const HOUR = 3_600_000;
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });

/** One signed message carrying several dated reports (signed now; the reports' `at` may lie in the past). */
async function report(portal: Portal, reports: { externalId: string; name: string; deviceType: number; status: 0 | 1; at: Date }[]) {
  const now = new Date();
  const body = JSON.stringify({
    type: 'devices.reported',
    data: { devices: reports.map((r) => ({ ...r, deviceModel: 'Axis P3245', at: r.at.toISOString() })) },
  });
  const id = `msg_${randomUUID()}`;
  const res = await fetch(portal.webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(portal.webhookSecret).sign(id, now, body),
    },
    body,
  });
  if (!res.ok) throw new Error(`webhook failed: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // The invitation link is read from the log (info level).
  server = await startConsole({ LOG_LEVEL: 'info', SUPERADMIN_EMAIL: ROOT.email, SUPERADMIN_PASSWORD: ROOT.password });
  browser = await launchBrowser();
  admin = await setUpTenant(server, 'Harbor Security');
  harbor = await createPortal(server, admin.token, 'Harbor View Hotel');
  const now = Date.now();
  const ago = (h: number) => new Date(now - h * HOUR);
  // Gate Camera: online from 72 h ago, offline 48 h ago for 6 h, online since. Lobby Intercom: online for a day.
  // Both also report now, so the offline sweep (10 minutes of silence) leaves them online.
  const gate = { externalId: 'cam-gate', name: 'Gate Camera', deviceType: 0 };
  const lobby = { externalId: 'int-1', name: 'Lobby Intercom', deviceType: 1 };
  await report(harbor, [
    { ...gate, status: 1, at: ago(72) },
    { ...gate, status: 0, at: ago(48) },
    { ...gate, status: 1, at: ago(42) },
    { ...gate, status: 1, at: ago(0) },
    { ...lobby, status: 1, at: ago(24) },
    { ...lobby, status: 1, at: ago(0) },
  ]);
  const other = await setUpTenant(server, 'Elsewhere Security');
  const otherPortal = await createPortal(server, other.token, 'Elsewhere Mall');
  await report(otherPortal, [{ externalId: 'cam-x', name: 'Foreign Camera', deviceType: 0, status: 1, at: ago(5) }]);
  const res = await fetch(`${server.url}/v0/api/devices`, { headers: { authorization: `Bearer ${other.token}` } });
  foreignDeviceId = ((await res.json()) as { data: { list: { id: number }[] } }).data.list[0].id;
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  errors = watchErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('device page', () => {
  it('opens from a device name on the portal page, whose trend card is drawn', async () => {
    await signIn(page, server.url, admin.email, ADMIN_PASSWORD);
    await page.goto(`${server.url}/dashboards/portals/${harbor.id}`);
    const trend = page.getByTestId('reliability-trend');
    await poll(() => trend.locator('canvas').count()).toBe(1);
    await poll(() => trend.getByText(/Today so far: 100\.0%/).count()).toBe(1);
    await page.getByRole('link', { name: 'Gate Camera' }).click();
    await poll(() => new URL(page.url()).pathname).toMatch(/^\/dashboards\/devices\/\d+$/);
    await poll(() => page.getByRole('heading', { name: 'Gate Camera' }).count()).toBeGreaterThan(0);
  });

  it('shows identity with links, reliability per range and the recent status changes', async () => {
    await poll(() => page.getByRole('link', { name: 'Harbor View Hotel' }).count()).toBe(1);
    const scores = page.getByTestId('device-reliability');
    // 24 h: online all along; 7 d, 30 d, 90 d: 66 h online of 72 observed = 91.7 %.
    await poll(() => scores.innerText()).toMatch(/Last 24 h\s*100\.0%\s*Last 7 d\s*91\.7%\s*Last 30 d\s*91\.7%\s*Last 90 d\s*91\.7%/);
    const rows = page.locator('.ant-card').filter({ hasText: 'Recent Status Changes' }).locator('tbody tr.ant-table-row');
    await poll(() => rows.count()).toBe(3);
    await expect(rows.nth(0).innerText()).resolves.toMatch(/Online[\s\S]*Now[\s\S]*42 h|Online[\s\S]*Now[\s\S]*1 d 18 h/);
    await expect(rows.nth(1).innerText()).resolves.toMatch(/Offline[\s\S]*6 h/);
  });

  it('names the hovered period of the timeline with its length, for the chosen range', async () => {
    const timeline = page.getByTestId('status-timeline');
    await poll(() => timeline.locator('canvas').count()).toBe(1);
    const over = page.locator('.u-over').first();
    const box = (await over.boundingBox())!;
    // 7 days wide: the outage is 48-42 h before the right edge.
    await page.mouse.move(box.x + box.width * (1 - 45 / (7 * 24)), box.y + box.height / 2);
    await poll(() => page.getByTestId('timeline-tooltip').innerText()).toMatch(/^Offline · .* \(6 h\)$/);
    await page.locator('.ant-radio-button-wrapper').filter({ hasText: '24 h' }).click();
    await poll(() => page.locator('.ant-radio-button-wrapper-checked').innerText()).toBe('24 h');
    const box24 = (await page.locator('.u-over').first().boundingBox())!;
    await page.mouse.move(box24.x + box24.width / 2, box24.y + box24.height / 2);
    await poll(() => page.getByTestId('timeline-tooltip').innerText()).toMatch(/^Online · /);
    await shootAll(page, 'device-page');
  });

  it("answers Device not found for another tenant's device", async () => {
    await page.goto(`${server.url}/dashboards/devices/${foreignDeviceId}`);
    await poll(() => page.getByText('Device not found').count()).toBe(1);
  });

  it('shows the company trend on Pulse', async () => {
    await page.goto(`${server.url}/dashboards/pulse`);
    const trend = page.getByTestId('reliability-trend');
    await poll(() => trend.locator('canvas').count()).toBe(1);
    await trend.scrollIntoViewIfNeeded();
    const box = (await trend.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    // Today's point. Its score comes from the rollup, which takes in history dated in the past (these
    // devices' first reports) at its next run: the score or "No data" until then.
    const today = new Date().toISOString().slice(0, 10);
    await poll(() => page.getByTestId('trend-tooltip').innerText()).toMatch(
      new RegExp(`^${today}\\s*Reliability: (100\\.0%|No data)\\s*Goal: 95\\.0%$`),
    );
    await shootAll(page, 'pulse-trend');
    expect(errors).toEqual([]);
  });
});

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@vigil/contracts';
import { launchBrowser } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { apiToken, poll, settledPopconfirm, signIn, watchErrors } from '../support/web.ts';
import { settled } from './layout-check.ts';
import { buildWorld, passwordOf, ROOT, type Who, type World } from './roles-support.ts';

/**
 * The console offers each role what the permission table allows it, and nothing it would be refused:
 * buttons, menu items and routes (docs/web.md "Roles"); one Forbidden page instead of red panels and
 * toasts; a user without a tenant is led to Settings; new tenants and empty portals show their next step.
 */
let server: StartedServer;
let browser: Browser;
let world: World;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startConsole({ LOG_LEVEL: 'info', SUPERADMIN_EMAIL: ROOT.email, SUPERADMIN_PASSWORD: ROOT.password });
  browser = await launchBrowser();
  world = await buildWorld(server);
}, 180_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

async function as(who: Who): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signIn(page, server.url, world.emails[who], passwordOf(who));
  return { page, errors };
}

/** Opens a route and waits for its data; returns the error toasts and red panels it raised. */
async function open(page: Page, route: string): Promise<string[]> {
  await page.goto(server.url + route);
  await settled(page);
  return [
    ...(await page.locator('.ant-notification-notice-error').allTextContents()),
    ...(await page.locator('.ant-alert-error').allTextContents()),
  ];
}

const button = (page: Page, name: string | RegExp) => page.getByRole('button', { name });
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('menuitem');

describe('Salesman', () => {
  it('sees no add or edit it may not do, reads the case status, comments, adds licenses', async () => {
    const { page, errors } = await as('Salesman');
    await poll(() => nav(page).allTextContents()).toEqual(['Pulse', 'Portals', 'Cases', 'Reports', 'Alerts']);
    expect(await open(page, '/dashboards/portals')).toEqual([]);
    expect(await button(page, 'Add Portal').count()).toBe(0);
    expect(await open(page, '/dashboards/cases')).toEqual([]);
    expect(await button(page, 'Add Case').count()).toBe(0);
    expect(await open(page, `/dashboards/portals/${world.portalId}`)).toEqual([]);
    expect(await button(page, 'Edit Portal').count()).toBe(0);
    expect(await button(page, 'Open Case').count()).toBe(0);
    expect(await button(page, 'Add License').count()).toBe(1);
    expect(await button(page, 'Report').count()).toBe(1);
    expect(await open(page, `/dashboards/cases/${world.caseId}`)).toEqual([]);
    expect(await page.getByRole('combobox', { name: 'Case status' }).count()).toBe(0);
    expect(await page.getByTestId('case-status').textContent()).toBe('New');
    expect(await button(page, 'Save').count()).toBe(1); // the comment editor
    expect(await open(page, '/dashboards/alerts')).toEqual([]);
    expect(await button(page, 'Add Alert').count()).toBe(0);
    expect(await open(page, `/dashboards/alerts/${world.alertId}`)).toEqual([]);
    await poll(() => button(page, 'View Portal').count()).toBe(1);
    expect(await button(page, 'Create New Case').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('gets one friendly page on Users, and Settings without a Forbidden toast', async () => {
    const { page } = await as('Salesman');
    expect(await open(page, '/dashboards/users')).toEqual([]);
    await poll(() => page.getByText('You do not have access to this page').count()).toBe(1);
    expect(await page.locator('.ant-table').count()).toBe(0);
    expect(await open(page, '/dashboards/settings')).toEqual([]);
    await page.getByRole('tab', { name: 'Tenant' }).click();
    await poll(() => page.getByText("Only an Admin can view and change the tenant's information.").count()).toBe(1);
    expect(await page.locator('.ant-notification-notice').count()).toBe(0);
  });
});

describe('Project Manager', () => {
  it('adds portals and cases, changes the status, but may not open Users', async () => {
    const { page } = await as('Project Manager');
    await poll(() => nav(page).count()).toBe(5);
    expect(await nav(page).allTextContents()).not.toContain('Users');
    expect(await open(page, '/dashboards/portals')).toEqual([]);
    expect(await button(page, 'Add Portal').count()).toBe(1);
    expect(await open(page, '/dashboards/alerts')).toEqual([]);
    expect(await button(page, 'Add Alert').count()).toBe(1);
    expect(await open(page, `/dashboards/alerts/${world.alertId}`)).toEqual([]);
    await poll(() => button(page, 'Create New Case').count()).toBe(1);
    expect(await open(page, `/dashboards/cases/${world.caseId}`)).toEqual([]);
    expect(await page.getByRole('combobox', { name: 'Case status' }).count()).toBe(1);
    expect(await open(page, '/dashboards/users')).toEqual([]);
    await poll(() => page.getByText('Forbidden. You do not have access. Ask your Admin if you need it.').count()).toBe(1);
    expect(await open(page, '/dashboards/settings')).toEqual([]);
  });
});

describe('superAdmin', () => {
  it('reads a portal without the tenant-only actions and gets the redirect-to-tenant page on report creation', async () => {
    const { page } = await as('superAdmin');
    await poll(async () => (await nav(page).allTextContents())[0]).toBe('Tenants');
    expect(await open(page, `/dashboards/portals/${world.portalId}`)).toEqual([]);
    for (const name of ['Add License', 'Edit Portal', 'Open Case', 'Report']) expect(await button(page, name).count(), name).toBe(0);
    expect(await page.getByLabel(/^Delete license/).count()).toBe(0);
    expect(await open(page, `/dashboards/cases/${world.caseId}`)).toEqual([]);
    expect(await page.getByRole('combobox', { name: 'Case status' }).count()).toBe(0);
    expect(await button(page, 'Save').count()).toBe(0);
    expect(await open(page, '/dashboards/reports/create')).toEqual([]);
    await poll(() => page.getByText(MSG.tenantOnly).count()).toBe(1);
  });
});

describe('Admin', () => {
  it('sees invited users marked, a missing portal without toasts, the webhook card of an empty portal', async () => {
    const { page } = await as('Admin');
    expect(await open(page, '/dashboards/users')).toEqual([]);
    await poll(() =>
      page
        .getByRole('row', { name: /Ivy Invited/ })
        .getByText('Invited', { exact: true })
        .count(),
    ).toBe(1);
    expect(
      await page
        .getByRole('row', { name: /Sally Sellers/ })
        .getByText('Invited', { exact: true })
        .count(),
    ).toBe(0);

    expect(await open(page, '/dashboards/portals/987654')).toEqual([]);
    await poll(() => page.getByText('Portal not found').count()).toBe(1);
    expect(await page.locator('.ant-notification-notice').count()).toBe(0);

    expect(await open(page, `/dashboards/portals/${world.emptyPortalId}`)).toEqual([]);
    const card = page.getByTestId('connect-webhook');
    await poll(() => card.count()).toBe(1);
    expect(await card.textContent()).toContain(`/v0/webhooks/portals/${world.emptyPortalId}`);
    expect(await card.getByLabel('Copy example request').count()).toBe(1);
    expect(await page.getByText("No devices reported yet. They appear here once the portal's webhook reports them.").count()).toBe(1);
  });

  it('names both counts when hovering the Company Wide Pulse donut', async () => {
    const { page } = await as('Admin');
    await open(page, '/dashboards/pulse');
    const donut = page.getByRole('img', { name: /^Company Wide Pulse: 4 online, 2 offline$/ });
    await poll(() => donut.count()).toBe(1);
    await poll(() => donut.locator('[data-part="share"]').textContent()).toBe('66.7%');
    await donut.locator('[data-part="hole"]').hover();
    await poll(() => page.getByText('Company Wide Pulse: 6 devices').count()).toBe(1);
    expect(await page.getByText('2 (33.3%)').count()).toBe(1);
  });

  it('says when the header search matches nothing, and confirms a license deletion', async () => {
    const { page } = await as('Admin');
    await open(page, `/dashboards/portals/${world.portalId}`);
    await page.getByRole('combobox', { name: 'Search customers' }).fill('zzqx');
    await poll(() => page.getByText('No customer matches “zzqx”.').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page
      .getByLabel(/^Delete license/)
      .first()
      .click();
    await (await settledPopconfirm(page)).getByRole('button', { name: 'Yes' }).click();
    await poll(() => page.locator('.ant-notification-notice-success').filter({ hasText: 'License deleted.' }).count()).toBe(1);
  });

  it('shows the report period as the CSV and PDF write it', async () => {
    const { page } = await as('Admin');
    expect(await open(page, `/dashboards/reports/${world.reportId}`)).toEqual([]);
    await poll(() => page.getByTestId('report-period').textContent()).toMatch(/^This Month: \d{4}-\d{2}-01 to \d{4}-\d{2}-\d{2} \(UTC\)$/);
    const token = await apiToken(server.url, world.emails.Admin, passwordOf('Admin'));
    const res = await fetch(`${server.url}/v0/api/reports/${world.reportId}/export.csv`, { headers: { authorization: `Bearer ${token}` } });
    const text = (await page.getByTestId('report-period').textContent())!.replace('This Month: ', '');
    expect(await res.text()).toContain(`Report,Period,This Month,${text}`);
  });
});

describe('first run', () => {
  it('leads a user with no tenant to Settings with nothing else offered', async () => {
    const { page, errors } = await as('no tenant');
    await poll(() => new URL(page.url()).pathname).toBe('/dashboards/settings');
    await poll(() => nav(page).allTextContents()).toEqual(['Settings']);
    expect(await page.getByRole('combobox', { name: 'Search customers' }).count()).toBe(0);
    expect(await button(page, /Alarms/).count()).toBe(0);
    expect(await open(page, '/dashboards/pulse')).toEqual([]);
    await poll(() => new URL(page.url()).pathname).toBe('/dashboards/settings');
    await poll(() => page.getByText('Set up your company').count()).toBe(1);
    expect(await page.locator('.ant-notification-notice').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("shows a new tenant's Pulse the first step instead of empty charts", async () => {
    const { page } = await as('empty tenant Admin');
    expect(await open(page, '/dashboards/pulse')).toEqual([]);
    const first = page.getByTestId('first-run');
    await poll(() => first.getByText('Add your first portal').count()).toBe(1);
    expect(await first.getByRole('button', { name: 'Add Portal' }).count()).toBe(1);
    expect(await page.getByText("No open cases. Cases gather a customer's offline devices.").count()).toBe(1);
  });
});

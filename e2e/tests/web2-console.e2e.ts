import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, SCREENSHOT_DIR } from '../support/browser.ts';
import { startConsole, type StartedServer } from '../support/server.ts';
import { openDialog, settledPopconfirm, signIn, signOut, watchErrors } from '../support/web.ts';
import { ADMIN_PASSWORD, createPortal, getPortal, reportDevices, ROOT, setUpTenant, shootAll, type Portal } from './web2-support.ts';

/**
 * Web II in Chromium against the real console (`npm start`, PGlite, the server's CSP):
 * Pulse and its live updates, portals, licenses, cases and comments, alerts, reports,
 * list state in the URL; screenshots of every page.
 */
let server: StartedServer;
let browser: Browser;
let page: Page;
let errors: string[];
let adminToken: string;
let harbor: Portal;
let adminEmail: string;
const SHOOT = process.env.WEB2_SCREENSHOTS !== '0';

const HARBOR_DEVICES = [
  { externalId: 'cam-1', name: 'Lobby Camera 1', deviceType: 0, deviceModel: 'Axis P3245', status: 1 },
  { externalId: 'cam-2', name: 'Lobby Camera 2', deviceType: 0, deviceModel: 'Axis P3245', status: 1 },
  { externalId: 'cam-3', name: 'Dock Camera', deviceType: 0, deviceModel: 'Hanwha XNV', status: 1 },
  { externalId: 'int-1', name: 'Front Intercom', deviceType: 1, deviceModel: '2N IP Verso', status: 1 },
  { externalId: 'acc-1', name: 'Front Door Reader', deviceType: 2, deviceModel: 'HID R10', status: 1 },
  { externalId: 'acc-2', name: 'Back Door Reader', deviceType: 2, deviceModel: 'HID R10', status: 1 },
  { externalId: 'alm-1', name: 'Alarm Panel', deviceType: 3, deviceModel: 'Bosch B6512', status: 0 },
  { externalId: 'env-1', name: 'Server Room Sensor', deviceType: 4, deviceModel: 'Axis D6310', status: 1 },
] as const;

const option = (text: string | RegExp) => page.locator('.ant-select-item-option').filter({ hasText: text });
/**
 * Picks an option of a select once its dropdown has finished opening, then waits for it to close: a
 * click during the opening motion could miss the option, leaving the list open over the next field.
 */
async function choose(field: Locator, text: RegExp) {
  await field.click();
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  await poll(() =>
    dropdown.evaluate((el: Element) => !/-(appear|enter)\b/.test(el.className) && el.getAnimations({ subtree: true }).length === 0),
  ).toBe(true);
  await option(text).click();
  await poll(() => field.getAttribute('aria-expanded')).toBe('false');
}
const toast = (text: string) => page.locator('.ant-notification-notice').filter({ hasText: text });
const path = () => new URL(page.url()).pathname;
/** expect.poll with a browser-sized timeout (vitest's default is 1 s). */
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number; interval?: number } = {}) =>
  expect.poll(fn, { timeout: 15_000, interval: 100, ...options });

beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  server = await startConsole({ LOG_LEVEL: 'info', SUPERADMIN_EMAIL: ROOT.email, SUPERADMIN_PASSWORD: ROOT.password });
  browser = await launchBrowser();
  const admin = await setUpTenant(server, 'Harbor Security');
  adminToken = admin.token;
  harbor = await createPortal(server, adminToken, 'Harbor View Hotel');
  await reportDevices(harbor, [...HARBOR_DEVICES]);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  errors = watchErrors(page);
  adminEmail = admin.email;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Pulse', () => {
  it('shows the device counts by type, the donut and the customer', async () => {
    await signIn(page, server.url, adminEmail, ADMIN_PASSWORD);
    await poll(path).toBe('/dashboards/pulse');
    await poll(() => page.getByRole('heading', { name: 'Pulse Harbor Security' }).count()).toBe(1);
    const counts = { Camera: 3, Intercom: 1, Access: 1 + 1, Alarm: 1, Environmental: 1 };
    for (const [label, n] of Object.entries(counts))
      await poll(() => page.getByTestId(`device-count-${label}`).textContent()).toBe(String(n));
    await poll(() => page.getByRole('img', { name: 'Company Wide Pulse: 7 online, 1 offline' }).count()).toBe(1);
    // Open Case Status: the bars and the quarter's gauge are drawn (SVG, named with their values).
    await poll(() =>
      page
        .getByRole('img', { name: /^Open cases by status: New \d+, In Progress \d+, Awaiting Delivery \d+, Requires Testing \d+$/ })
        .count(),
    ).toBe(1);
    await poll(() => page.getByRole('img', { name: /^\d+ cases completed this quarter$/ }).count()).toBe(1);
    await poll(() => page.getByRole('link', { name: 'Harbor View Hotel' }).count()).toBeGreaterThan(0);
  });

  it('updates Live Events and the donut without a reload when a webhook takes a device offline, and raises the banner', async () => {
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    const liveEvents = page.locator('.ant-card').filter({ has: page.getByText('Live Events', { exact: true }) });
    await poll(() => liveEvents.getByRole('row').filter({ hasText: 'Harbor View Hotel' }).getByRole('cell').nth(1).textContent(), {
      timeout: 15_000,
    }).toBe('1');
    await reportDevices(harbor, [{ ...HARBOR_DEVICES[0], status: 0 }]);
    // The offline alert opens within seconds and raises the banner (shown for 3 s).
    const banner = page.getByRole('button', { name: 'View Event' });
    await poll(() => banner.count(), { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);
    await poll(() => page.getByRole('img', { name: 'Company Wide Pulse: 6 online, 2 offline' }).count(), { timeout: 15_000 }).toBe(1);
    await poll(() => liveEvents.getByRole('row').filter({ hasText: 'Harbor View Hotel' }).getByRole('cell').nth(1).textContent(), {
      timeout: 15_000,
    }).toBe('2');
    // The row's Offline Since is written M/D/YY h:mm A.
    expect(await liveEvents.getByRole('row').filter({ hasText: 'Harbor View Hotel' }).getByRole('cell').nth(2).textContent()).toMatch(
      /^\d{1,2}\/\d{1,2}\/\d{2} \d{1,2}:\d{2} (AM|PM)$/,
    );
    await poll(() => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    if (SHOOT) await shootAll(page, 'pulse', 1800);
  });
});

describe('Portals, licenses, cases and comments', () => {
  it('adds a portal (validation first) and shows its webhook secret', async () => {
    await page.goto(`${server.url}/dashboards/portals`);
    const dialog = await openDialog(page, page.getByRole('button', { name: 'Add Portal' }).first(), 'API Key');
    await dialog.getByRole('button', { name: 'Add Portal' }).click();
    await poll(() => dialog.getByText('Please input customer name').count()).toBe(1);
    await poll(() => dialog.getByText('Please input API Key').count()).toBe(1);
    expect(await dialog.getByRole('link', { name: /where to find the API key/ }).getAttribute('target')).toBe('_blank');
    await dialog.getByLabel('Customer Name').fill('Cedar Grove Apartments');
    await dialog.getByLabel('API Key').fill('cedar-api-key-123456');
    if (SHOOT) await page.screenshot({ path: `${SCREENSHOT_DIR}/web2-add-portal-dialog-1440-light.png` });
    await dialog.getByRole('button', { name: 'Add Portal' }).click();
    await poll(path).toMatch(/^\/dashboards\/portals\/\d+$/);
    await poll(() => page.getByRole('heading', { name: 'Cedar Grove Apartments' }).count()).toBe(1);

    const edit = await openDialog(page, page.getByRole('button', { name: 'Edit Portal' }), 'Edit Portal');
    await poll(() => edit.getByText(/^whsec_/).count()).toBe(1);
    await poll(() => edit.getByText('All Scopes').count()).toBe(1);
    await edit.getByLabel('Customer Name').fill('');
    await edit.getByRole('button', { name: 'Save Portal' }).click();
    await poll(() => edit.getByText('Please input customer name').count()).toBe(1);
    await edit.getByLabel('Customer Name').fill('Cedar Grove Apartments');
    if (SHOOT) await page.screenshot({ path: `${SCREENSHOT_DIR}/web2-edit-portal-dialog-1440-light.png` });
    await edit.getByRole('button', { name: 'Save Portal' }).click();
    await poll(() => edit.isVisible()).toBe(false);
  });

  it('adds a license after showing each validation message', async () => {
    const dialog = await openDialog(page, page.getByRole('button', { name: 'Add License' }), 'Add New License');
    expect(await dialog.getByLabel('Device Count').inputValue()).toBe('1');
    await dialog.getByLabel('Device Count').fill('0');
    await dialog.getByRole('button', { name: 'Add License' }).click();
    for (const text of ['Device type is required', 'Terms are required', 'Device count must be at least 1', 'Start date is required'])
      await poll(() => dialog.getByText(text).count()).toBe(1);
    // Validation, not clamping: the typed 0 is still there.
    expect(await dialog.getByLabel('Device Count').inputValue()).toBe('0');
    await choose(dialog.getByLabel('Device Type'), /^Camera$/);
    await choose(dialog.getByLabel('Terms'), /^3Y$/);
    await dialog.getByLabel('Device Count').fill('4');
    await dialog.getByLabel('Start date').click();
    await dialog.getByLabel('Start date').fill('2026-01-15');
    await page.keyboard.press('Enter');
    // Every field has taken its value (its message gone) before the form is sent: under the whole
    // suite's load the click could come before the typed date was committed, and the dialog stayed open.
    for (const text of ['Device type is required', 'Terms are required', 'Device count must be at least 1', 'Start date is required'])
      await poll(() => dialog.getByText(text).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Add License' }).click();
    await poll(() => dialog.isVisible()).toBe(false);
    const row = page.getByRole('row').filter({ hasText: '2026-01-15' });
    await poll(() => row.count()).toBe(1);
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Camera', '4', '3Y', '2026-01-15', '2029-01-15']),
    );
  });

  it("opens a case from the portal's offline devices, changes its status, writes, edits and deletes a comment", async () => {
    const id = Number(path().split('/').pop());
    const cedar = await getPortal(server, adminToken, id);
    await reportDevices(cedar, [
      { externalId: 'c-1', name: 'Garage Camera', deviceType: 0, deviceModel: 'Axis M3106', status: 0 },
      { externalId: 'c-2', name: 'Pool Gate Reader', deviceType: 2, deviceModel: 'HID R10', status: 1 },
    ]);
    await poll(() => page.getByRole('cell', { name: 'Garage Camera' }).count(), { timeout: 15_000 }).toBe(1);
    // Portal Pulse trades its empty state for the (taller) donut when its own refetch lands, which can be
    // after the table's, and that moves the Open Case button below it: the likely cause of one whole-suite
    // run where the click opened no case (the page stayed on the portal). Clicked once the donut is there.
    await poll(() => page.getByRole('img', { name: 'Portal Pulse: 1 online, 1 offline' }).count(), { timeout: 15_000 }).toBe(1);
    if (SHOOT) await shootAll(page, 'portal-detail');
    await page.getByRole('button', { name: 'Open Case' }).click();
    await poll(path).toMatch(/^\/dashboards\/cases\/\d+$/);
    await poll(() => page.getByRole('heading', { name: 'Cedar Grove Apartments' }).count()).toBe(1);
    await poll(() => page.getByRole('cell', { name: 'Garage Camera' }).count()).toBe(1);

    await page.getByLabel('Case status').click();
    await option('In Progress').click();
    await poll(() => toast('Status changed to In Progress.').count()).toBeGreaterThan(0);

    const editor = page.getByRole('textbox', { name: 'Comment' });
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await poll(() => save.isDisabled()).toBe(true);
    await editor.click();
    await page.keyboard.type('Camera needs a new PoE injector.');
    await save.click();
    await poll(() => page.getByText('Camera needs a new PoE injector.').count()).toBe(1);
    await poll(() => page.getByText('Comments (1)').count()).toBe(1);

    await page.getByRole('button', { name: 'Edit comment' }).click();
    const change = page.getByRole('button', { name: 'Change', exact: true });
    await poll(() => change.count()).toBe(1);
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Ordered.');
    await change.click();
    await poll(() => page.getByText('Camera needs a new PoE injector. Ordered.').count()).toBe(1);
    if (SHOOT) await shootAll(page, 'case-detail');

    await page.getByRole('button', { name: 'Delete comment' }).click();
    await poll(() => page.getByText('Are you sure you want to delete this comment? This action cannot be undone.').count()).toBe(1);
    await page.getByRole('button', { name: 'Yes, Delete' }).click();
    await poll(() => page.getByText('Comments (0)').count()).toBe(1);
  });
});

describe('Alerts', () => {
  it('creates an alert (validation first, 422 when nothing is offline), acknowledges it and opens a case from it', async () => {
    // A portal with no device: Add Alert on it is refused with the server's message and creates nothing.
    await createPortal(server, adminToken, 'Fairview Mall');
    await page.goto(`${server.url}/dashboards/alerts`);
    // The dialog's buttons are clicked only once its opening motion is over (openDialog says why):
    // under load a click during it closed the dialog, and the validation messages never came.
    const dialog = await openDialog(page, page.getByRole('button', { name: 'Add Alert' }), 'Select Type');
    await dialog.getByRole('button', { name: 'Add Alert' }).click();
    await poll(() => dialog.getByText('You have to select Alert Type to add Alert.').count()).toBe(1);
    await poll(() => dialog.getByText('You have to select Customer to add Alert.').count()).toBe(1);
    await dialog.getByLabel('Select Type').click();
    await option('Device Offline').click();
    await choose(dialog.getByLabel('Select Customer'), /^Fairview Mall$/);
    await dialog.getByRole('button', { name: 'Add Alert' }).click();
    await poll(() => toast('This portal has no offline devices.').count()).toBeGreaterThan(0);
    expect(await toast('0 devices are added to Alert.').count()).toBe(0);
    expect(await dialog.isVisible()).toBe(true);
    await choose(dialog.getByLabel('Select Customer'), /^Harbor View Hotel$/);
    await dialog.getByRole('button', { name: 'Add Alert' }).click();
    // Harbor's one open alert already holds both offline devices (the Alarm Panel, then Lobby Camera 1 joined it).
    await poll(() => toast('2 devices are added to Alert.').count()).toBeGreaterThan(0);
    await poll(() => dialog.isVisible()).toBe(false);
    expect(await page.getByRole('row').filter({ hasText: 'Fairview Mall' }).count()).toBe(0);
    if (SHOOT) await shootAll(page, 'alerts');

    // One open alert for Harbor, holding both offline devices, with its creation time; not acknowledged yet.
    const harborRows = page.getByRole('row').filter({ hasText: 'Harbor View Hotel' });
    await poll(() => harborRows.count()).toBe(1);
    const cells = await harborRows.getByRole('cell').allTextContents();
    expect(cells).toEqual(expect.arrayContaining(['Open', 'Device Offline', '2']));
    expect(cells.some((c) => /^\d{1,2}\/\d{1,2}\/\d{2} \d{1,2}:\d{2} (AM|PM)$/.test(c))).toBe(true);
    expect(cells.at(-1)).toBe('-');

    // The Alarms dropdown lists each portal's alert once, and never 0 devices.
    await page.getByRole('button', { name: 'Alarms' }).click();
    const alarms = page.getByRole('dialog', { name: 'Recent alerts' });
    await poll(() => alarms.getByText('Harbor View Hotel', { exact: true }).count()).toBe(1);
    expect(await alarms.locator('.ant-badge-count').allTextContents()).not.toContain('0');
    await page.getByRole('button', { name: 'Alarms' }).click();
    await poll(() => alarms.isVisible()).toBe(false);

    await harborRows.first().getByRole('link', { name: 'Harbor View Hotel' }).click();
    await poll(path).toMatch(/^\/dashboards\/alerts\/\d+$/);
    await poll(() => page.getByRole('cell', { name: 'Alarm Panel' }).count()).toBe(1);
    await poll(() => page.getByRole('cell', { name: 'Lobby Camera 1' }).count()).toBe(1);

    // Acknowledge: who and when, once.
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await poll(() => toast('Alert acknowledged.').count()).toBeGreaterThan(0);
    await poll(() => page.getByText(/^Dana Whitfield, \d{1,2}\/\d{1,2}\/\d{2} \d{1,2}:\d{2} (AM|PM)$/).count()).toBe(1);
    await poll(() => page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Create New Case' }).click();
    await poll(() => page.getByText('Do you want to create a new Case for offline devices in this Alert?').count()).toBe(1);
    if (SHOOT) {
      await shootAll(page, 'alert-detail');
      await page.getByRole('button', { name: 'Create New Case' }).click();
    }
    await (await settledPopconfirm(page)).getByRole('button', { name: 'Yes' }).click();
    await poll(path).toMatch(/^\/dashboards\/cases\/\d+$/);
    await poll(() => page.getByRole('cell', { name: 'Alarm Panel' }).count()).toBe(1);

    // The list shows who acknowledged it.
    await page.goto(`${server.url}/dashboards/alerts`);
    await poll(() => harborRows.getByRole('cell', { name: /^Dana Whitfield, / }).count()).toBe(1);
  });
});

describe('Reports', () => {
  it('previews, saves and downloads a report (CSV content, a real PDF)', async () => {
    await page.goto(`${server.url}/dashboards/reports/create`);
    await page.getByLabel('Customer Name').click();
    await option('Harbor View Hotel').click();
    if (SHOOT) await shootAll(page, 'report-create');
    await page.getByLabel('Customer Name').click();
    await option('Harbor View Hotel').click();
    await page.getByRole('button', { name: 'View Report' }).click();
    await poll(path).toBe('/dashboards/reports/-1');
    await poll(() => page.getByRole('heading', { name: 'Harbor View Hotel — This Week' }).count()).toBe(1);

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csvText = readFileSync(await csv.path(), 'utf8');
    expect(csvText).toContain('Harbor View Hotel');
    expect(csv.suggestedFilename()).toMatch(/^harbor-view-hotel-this-week-.*\.csv$/);

    await page.getByRole('button', { name: 'Save Report' }).click();
    await poll(path).toMatch(/^\/dashboards\/reports\/\d+$/);
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    if (SHOOT) await shootAll(page, 'report-detail', 1800);

    await page.goto(`${server.url}/dashboards/reports`);
    await poll(() => page.getByRole('link', { name: 'Harbor View Hotel' }).count()).toBe(1);
    if (SHOOT) await shootAll(page, 'reports');
  });
});

describe('List state in the address bar', () => {
  it('keeps sort and filter through reload and back/forward', async () => {
    await page.goto(`${server.url}/dashboards/portals`);
    await page.getByRole('columnheader', { name: /^Customer/ }).click();
    await poll(() => new URL(page.url()).searchParams.get('sort')).toBe('["name","ASC"]');
    await page.getByPlaceholder('Search customers').fill('cedar');
    await page.keyboard.press('Enter');
    await poll(() => new URL(page.url()).searchParams.get('filter')).toBe('{"q":"cedar"}');
    await poll(() => page.getByRole('link', { name: 'Harbor View Hotel' }).count()).toBe(0);
    await page.reload();
    await poll(() => page.getByRole('link', { name: 'Cedar Grove Apartments' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Harbor View Hotel' }).count()).toBe(0);
    expect(await page.getByPlaceholder('Search customers').inputValue()).toBe('cedar');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('["name","ASC"]');
    expect(await page.locator('th.ant-table-column-sort').first().textContent()).toContain('Customer');
    await page.goBack();
    await poll(() => new URL(page.url()).searchParams.get('filter')).toBeNull();
    await poll(() => page.getByRole('link', { name: 'Harbor View Hotel' }).count()).toBe(1);
    await page.goForward();
    await poll(() => page.getByRole('link', { name: 'Harbor View Hotel' }).count()).toBe(0);
    if (SHOOT) {
      await page.goto(`${server.url}/dashboards/portals`);
      await shootAll(page, 'portals');
      await page.goto(`${server.url}/dashboards/cases`);
      await shootAll(page, 'cases');
      await page.goto(`${server.url}/dashboards/portals/${harbor.id}/case`);
      await shootAll(page, 'portal-cases');
    }
    expect(errors).toEqual([]);
  });
});

describe('superAdmin', () => {
  it('sees the Tenant Name column and no tenant-only actions', async () => {
    await signOut(page);
    await signIn(page, server.url, ROOT.email, ROOT.password);
    await page.goto(`${server.url}/dashboards/portals`);
    await poll(() => page.getByRole('columnheader', { name: /Tenant Name/ }).count()).toBeGreaterThan(0);
    await poll(() => page.getByRole('cell', { name: 'Harbor Security' }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Add Portal' }).count()).toBe(0);
    await page.goto(`${server.url}/dashboards/cases`);
    await poll(() => page.getByRole('columnheader', { name: /Tenant Name/ }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Add Case' }).count()).toBe(0);
    await page.goto(`${server.url}/dashboards/alerts`);
    await poll(() => page.getByRole('link', { name: 'Harbor View Hotel' }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Add Alert' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Harbor View Hotel' }).first().click();
    await poll(() => page.getByRole('button', { name: 'View Portal' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Create New Case' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

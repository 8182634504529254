import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createQrCode, type QrCode } from '../../src/codes/index.js';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, screenshot, watchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { IPHONE_SAFARI, scan } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let database: TestDatabase;
let app: TestApp;
let browser: Browser;
let owner: TestPerson;
let code: QrCode;

useBrowserSuite(async (suite) => {
  ({ database, app, browser } = suite);
  owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
  code = (
    await createQrCode(database.db, {
      accountId: owner.accountId,
      name: 'Window poster',
      destinationUrl: 'https://example.com/menu',
      actor: { kind: 'user', userId: owner.userId },
    })
  ).code;
});

/** The three lifetime counters as the stat grid shows them. */
async function totals(page: Page, scope: string): Promise<string[]> {
  return page.locator(`${scope} .stat-grid .value`).allTextContents();
}

describe('analytics in a browser', () => {
  it('shows real scans (two phones, a desktop, a bot) in the code page panel and on /analytics, switches ranges, opens the table, downloads the CSV', async () => {
    // Scans through the real short URL: the bot is redirected but counted apart, with no row of its own.
    for (const userAgent of [IPHONE_SAFARI, IPHONE_SAFARI, WINDOWS_CHROME, GOOGLEBOT]) expect(await scan(app, code.slug, { userAgent })).toBe(302);
    await expect
      .poll(() => scanCountsOf(database.db, code.id))
      .toEqual({ scans: 3, botScans: 1 });

    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    await signIn(page, app, owner);
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);

    // The code's page loads the panel with htmx.
    await page.goto(`${app.origin}/codes/${code.id}`);
    const panel = page.locator('#code-analytics');
    await expect.poll(() => panel.getByRole('heading', { name: 'Recent scans' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await totals(page, '#code-analytics')).toEqual(['4', '3', '1']);
    expect(await panel.textContent()).toContain(`times in ${zone}`);
    const recentRows = await panel.locator('table').last().locator('tbody tr').allTextContents();
    expect(recentRows).toHaveLength(3);
    expect(recentRows.filter((row) => row.includes('MobileiOSMobile Safari'))).toHaveLength(2);
    expect(recentRows.filter((row) => row.includes('DesktopWindowsChrome'))).toHaveLength(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-analytics-code-panel');

    // Switching the range swaps the panel in place (the address stays the code's page).
    await panel.getByRole('link', { name: '7 d' }).click();
    await expect.poll(() => page.locator('#code-analytics [aria-current="true"]').textContent()).toBe('7 d');
    expect(new URL(page.url()).pathname).toBe(`/codes/${code.id}`);
    await page.locator('#code-analytics summary', { hasText: 'Show as a table' }).click();
    const panelTable = page.locator('#code-analytics table').first();
    await expect.poll(() => panelTable.isVisible()).toBe(true);
    expect(await panelTable.locator('tbody tr').count()).toBe(7);
    expect(await panelTable.locator('tbody tr').last().locator('td').textContent()).toBe('3');

    // The whole account.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Analytics' }).isVisible()).toBe(true);
    expect(await totals(page, 'main')).toEqual(['4', '3', '1']);
    expect(await page.getByRole('img', { name: /Bar chart of human scans per day, the last 30 days/ }).getAttribute('aria-label')).toContain('3 in total');
    expect(await page.getByRole('link', { name: 'Window poster' }).count()).toBe(3);
    expect(await page.getByRole('table', { name: 'Device' }).locator('tbody').textContent()).toBe('Mobile266.7%Desktop133.3%');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-analytics-account');

    await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: '24 h' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?range=24h');
    expect(await page.getByRole('link', { name: '24 h' }).getAttribute('aria-current')).toBe('true');
    await page.getByText('Show as a table').click();
    const hours = page.getByRole('table', { name: /Human scans per hour, the last 24 hours/ });
    await expect.poll(() => hours.isVisible()).toBe(true);
    const counts = (await hours.locator('tbody td').allTextContents()).map(Number);
    expect(counts).toHaveLength(24);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(counts.at(-1)).toBe(3);
    await screenshot(page, 'dashboard-analytics-account-24h');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^acme-bakery-all-codes-scans-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('code_id,code_name,created_at,device,os,browser,destination_url,referrer_host');
    expect(lines.slice(1).map((line) => line.split(',').slice(3, 6).join(' ')).sort()).toEqual([
      'desktop Windows Chrome',
      'mobile iOS Mobile Safari',
      'mobile iOS Mobile Safari',
    ]);

    expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);

  it("reads a code's analytics fully with JavaScript off: totals, chart, the table behind it, breakdowns and recent scans", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${app.origin}/login`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/codes');

    await page.goto(`${app.origin}/codes/${code.id}/analytics?range=7d`);
    expect(await totals(page, 'main')).toEqual(['4', '3', '1']);
    expect(await page.getByRole('img', { name: /Bar chart/ }).getAttribute('aria-label')).toContain('3 in total');
    await page.getByText('Show as a table').click();
    const table = page.getByRole('table', { name: /Human scans per day, the last 7 days/ });
    await expect.poll(() => table.isVisible()).toBe(true);
    expect(await table.locator('tbody tr').last().locator('td').textContent()).toBe('3');
    expect(await page.getByRole('table', { name: 'Browser' }).locator('tbody').textContent()).toBe('Mobile Safari266.7%Chrome133.3%');
    expect(await page.getByRole('heading', { name: 'Recent scans' }).isVisible()).toBe(true);
    // Without script the range links are plain links to this page.
    await page.getByRole('link', { name: '90 d' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?range=90d');
    expect(await page.getByRole('link', { name: '90 d' }).getAttribute('aria-current')).toBe('true');
    await screenshot(page, 'dashboard-analytics-code-no-js');
    await context.close();
  }, BROWSER_TEST_TIMEOUT);
});

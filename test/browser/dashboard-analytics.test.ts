import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createQrCode, type QrCode } from '../../src/codes/index.js';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, navigatedTo, screenshot, screenshotOf, watchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { IPHONE_SAFARI, scan } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
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
  // Behind a proxy on loopback, so a test names each scanner's address in X-Forwarded-For.
}, { overrides: { trustProxy: 'loopback' } });

/** The map and the heatmap alone, for people to look at (full pages shrink them out of sight). */
async function pictures(page: Page, width: string): Promise<void> {
  await screenshotOf(page.locator('.world-map').first(), `dashboard-analytics-map-${width}`);
  await screenshotOf(page.locator('.heatmap').first(), `dashboard-analytics-heatmap-${width}`);
}

/** A code's lifetime unique scans, folded or not. */
async function uniqueScansOf(codeId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select (unique_scan_count + coalesce((select sum(unique_scans) from qr_code_scan_increments where qr_code_id = ${codeId}), 0))::int as n
    from qr_codes where id = ${codeId}`.execute(database.db);
  return rows[0]!.n;
}

/** The code named by each row of the account's recent scans, sorted (scans of one minute: their order is the clock's). */
async function recentCodes(page: Page): Promise<string[]> {
  return (await page.getByRole('region', { name: 'Recent scans table' }).locator('tbody tr td:first-of-type').allTextContents()).sort();
}

/** The lifetime counters as the stat grid shows them. */
async function totals(page: Page, scope: string): Promise<string[]> {
  return page.locator(`${scope} .stat-grid .value`).allTextContents();
}

describe('analytics in a browser', () => {
  it('shows real scans (two phones, a desktop, a bot) in the code page panel and on /analytics, switches ranges, opens the table, downloads the CSV', async () => {
    // Scans through the real short URL: the bot is redirected but counted apart, with no row of its own.
    for (const userAgent of [IPHONE_SAFARI, IPHONE_SAFARI, WINDOWS_CHROME, GOOGLEBOT]) expect(await scan(app, code.slug, { userAgent })).toBe(302);
    await expect
      .poll(() => scanCountsOf(database.db, code.id))
      .toMatchObject({ scans: 3, botScans: 1 });

    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    await signIn(page, app, owner);
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);

    // The code's page loads the panel with htmx.
    await page.goto(`${app.origin}/codes/${code.id}`);
    const panel = page.locator('#code-analytics');
    await expect.poll(() => panel.getByRole('heading', { name: 'Recent scans' }).isVisible(), { timeout: 20_000 }).toBe(true);
    // Unique: 0 while the redirect records no visitors, 2 once it does (the iPhone's second scan is a repeat).
    const uniques = String(await uniqueScansOf(code.id));
    expect(await totals(page, '#code-analytics')).toEqual(['4', '3', uniques, '1']);
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
    expect(await panelTable.locator('tbody tr').last().locator('td').first().textContent()).toBe('3');

    // The whole account.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    // The whole document, not its first chunk: the heading shows before the tables below the inlined map are parsed.
    await navigatedTo(page, (url) => url.pathname === '/analytics');
    expect(await page.getByRole('heading', { level: 1, name: 'Analytics' }).isVisible()).toBe(true);
    expect(await totals(page, 'main')).toEqual(['4', '3', uniques, '1']);
    expect(await page.getByRole('img', { name: /Bar chart of human scans per day, the last 30 days/ }).getAttribute('aria-label')).toContain('3 in total');
    // Three recent scans name it, and so does the ranking of the account's codes.
    expect(await page.getByRole('link', { name: 'Window poster' }).count()).toBe(4);
    expect(await page.getByRole('table', { name: 'Codes by scans' }).locator('tbody tr').allTextContents()).toEqual([`1Window poster3${uniques}`]);
    expect(await page.getByRole('table', { name: 'Device' }).locator('tbody').textContent()).toMatch(/^Mobile2[01]66\.7%Desktop1[01]33\.3%$/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-analytics-account');

    await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: '24 h' }).click();
    await navigatedTo(page, (url) => url.search === '?range=24h');
    expect(await page.getByRole('link', { name: '24 h' }).getAttribute('aria-current')).toBe('true');
    await page.getByText('Show as a table').click();
    const hours = page.getByRole('table', { name: /Human scans per hour, the last 24 hours/ });
    await expect.poll(() => hours.isVisible()).toBe(true);
    const counts = (await hours.locator('tbody tr td:nth-child(2)').allTextContents()).map(Number);
    expect(counts).toHaveLength(24);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    // In the last hour's row, or the one before when the hour turned since the scans.
    expect(counts.at(-2)! + counts.at(-1)!).toBe(3);
    await screenshot(page, 'dashboard-analytics-account-24h');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^acme-bakery-all-codes-scans-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('code_id,code_name,created_at,device,os,browser,destination_url,referrer_host,country,region,city,language,unique,rule_id,variant');
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
    await navigatedTo(page, (url) => url.pathname === '/codes');

    await page.goto(`${app.origin}/codes/${code.id}/analytics?range=7d`);
    expect(await totals(page, 'main')).toEqual(['4', '3', String(await uniqueScansOf(code.id)), '1']);
    expect(await page.getByRole('img', { name: /Bar chart/ }).getAttribute('aria-label')).toContain('3 in total');
    await page.getByText('Show as a table').click();
    const table = page.getByRole('table', { name: /Human scans per day, the last 7 days/ });
    await expect.poll(() => table.isVisible()).toBe(true);
    expect(await table.locator('tbody tr').last().locator('td').first().textContent()).toBe('3');
    expect(await page.getByRole('table', { name: 'Browser' }).locator('tbody').textContent()).toMatch(/^Mobile Safari2[01]66\.7%Chrome1[01]33\.3%$/);
    expect(await page.getByRole('heading', { name: 'Recent scans' }).isVisible()).toBe(true);
    // Without script the range links are plain links to this page.
    await page.getByRole('link', { name: '90 d' }).click();
    await navigatedTo(page, (url) => url.search === '?range=90d');
    expect(await page.getByRole('link', { name: '90 d' }).getAttribute('aria-current')).toBe('true');
    await screenshot(page, 'dashboard-analytics-code-no-js');
    await context.close();
  }, BROWSER_TEST_TIMEOUT);

  it('filters the whole page by a country clicked on the world map, then by device, as chips in a shareable address', async () => {
    // A second account scanned from known places, through the real short URLs behind a trusted proxy: the
    // embedded DB-IP database places 193.99.144.80 in Germany, 210.140.92.183 in Japan and 8.8.8.8 in the US.
    const globe = await createPerson(database.db, { accountName: 'Globe Cafe' });
    const made = async (name: string) =>
      (await createQrCode(database.db, { accountId: globe.accountId, name, destinationUrl: 'https://example.com/', actor: { kind: 'user', userId: globe.userId } })).code;
    const menu = await made('Menu card');
    const door = await made('Door sign');
    const scans: Array<[QrCode, string, string, string]> = [
      [menu, '193.99.144.80', IPHONE_SAFARI, 'de-DE,de;q=0.9'], // unique
      [menu, '193.99.144.80', IPHONE_SAFARI, 'de-DE,de;q=0.9'], // the same visitor again: a repeat
      [menu, '193.99.144.80', ANDROID_CHROME, 'de'], // another phone on the same network: unique
      [menu, '210.140.92.183', ANDROID_CHROME, 'ja'],
      [menu, '210.140.92.183', IPHONE_SAFARI, 'ja-JP'],
      [door, '8.8.8.8', WINDOWS_CHROME, 'en-US'],
      [door, '193.99.144.80', IPHONE_SAFARI, 'en'], // unique: its first scan of this code
    ];
    for (const [target, ip, userAgent, language] of scans) {
      const response = await fetch(`${app.origin}/r/${target.slug}`, {
        redirect: 'manual',
        headers: { 'X-Forwarded-For': ip, 'User-Agent': userAgent, 'Accept-Language': language },
      });
      expect(response.status).toBe(302);
    }
    await expect.poll(async () => [(await scanCountsOf(database.db, menu.id)).scans, (await scanCountsOf(database.db, door.id)).scans]).toEqual([5, 2]);

    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, app, globe);
    await page.goto(`${app.origin}/analytics?range=7d`);
    expect(await totals(page, 'main')).toEqual(['7', '7', '6', '0']);
    const countries = page.getByRole('table', { name: 'Country' });
    expect(await countries.locator('tbody tr').allTextContents()).toEqual(['Germany4357.1%', 'Japan2228.6%', 'United States1114.3%']);
    await screenshot(page, 'dashboard-analytics-audience-1280');
    await pictures(page, '1280');

    // Germany on the map (the picture's link; a keyboard uses the table's).
    await page.locator('.world-map a[href*="country=DE"]').first().click();
    await navigatedTo(page, (url) => url.searchParams.get('country') === 'DE');
    expect(new URL(page.url()).searchParams.get('range')).toBe('7d');
    const filters = page.getByRole('list', { name: 'Filters' });
    expect(await filters.getByRole('link').allTextContents()).toEqual(['Country: Germany ×']);
    expect(await totals(page, 'main')).toEqual(['4', '3']);
    expect(await page.getByText(/human scans, .* unique, in the last 7 days/).textContent()).toBe('4 human scans, 3 unique, in the last 7 days.');
    expect(await page.getByRole('table', { name: 'Device' }).locator('tbody').textContent()).toBe('Mobile43100%');
    expect(await page.getByRole('table', { name: 'Language' }).locator('tbody tr').allTextContents()).toEqual(['German3275%', 'English1125%']);
    expect(await page.getByRole('table', { name: 'Codes by scans' }).locator('tbody tr').allTextContents()).toEqual(['1Menu card32', '2Door sign11']);
    // A ranked code opens its own analytics as filtered; the recent scans are Germany's too.
    expect(await page.getByRole('table', { name: 'Codes by scans' }).getByRole('link', { name: 'Menu card' }).getAttribute('href')).toBe(`/codes/${menu.id}/analytics?range=7d&country=DE`);
    expect(await recentCodes(page)).toEqual(['Door sign', 'Menu card', 'Menu card', 'Menu card']);
    // The heatmap's busiest cell holds them all (scanned within a minute; an hour's edge may split them in two).
    const heatmapCells = (await page.locator('.heatmap tbody td').allTextContents()).map((text) => Number(text.replace(/\D/g, '') || 0));
    expect(heatmapCells.reduce((a, b) => a + b, 0)).toBe(4);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Then mobile phones too: both filters in the address, then Germany removed by its chip.
    await page.getByRole('table', { name: 'Device' }).getByRole('link', { name: 'Mobile' }).click();
    await navigatedTo(page, (url) => url.searchParams.get('device') === 'mobile');
    expect(await filters.getByRole('link').allTextContents()).toEqual(['Country: Germany ×', 'Device: Mobile ×', 'Remove all filters']);
    await filters.getByRole('link', { name: 'Remove filter Country: Germany' }).click();
    await navigatedTo(page, (url) => !url.searchParams.has('country'));
    expect(new URL(page.url()).searchParams.get('device')).toBe('mobile');
    expect(await totals(page, 'main')).toEqual(['6', '5']);
    expect(await recentCodes(page)).toEqual(['Door sign', 'Menu card', 'Menu card', 'Menu card', 'Menu card', 'Menu card']);
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/analytics/scans.csv?device=mobile');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'dashboard-analytics-audience-390');
    await pictures(page, '390');
    // On a phone: the map's legend keys on one line below its label, each swatch beside its count (none left
    // alone on a line); a recent scan's time on at most two lines (date, then clock) and its code's name on one.
    const legend = await page.locator('.world-map .scale-legend').evaluate((caption) => {
      const keys = Array.from(caption.querySelectorAll('.scale-key')).map((key) => ({ key: key.getBoundingClientRect(), swatch: key.querySelector('.swatch')!.getBoundingClientRect() }));
      return {
        belowLabel: keys.every(({ key }) => key.top >= caption.querySelector('.scale-label')!.getBoundingClientRect().bottom),
        rows: new Set(keys.map(({ key }) => Math.round(key.top))).size,
        swatchesBesideCounts: keys.every(({ key, swatch }) => key.height < 2 * swatch.height && swatch.top >= key.top && swatch.bottom <= key.bottom),
      };
    });
    expect(legend).toEqual({ belowLabel: true, rows: 1, swatchesBesideCounts: true });
    const recentLines = await page.getByRole('region', { name: 'Recent scans table' }).locator('tbody tr').evaluateAll((rows) =>
      rows.map((row) => [row.querySelector('time')!.getClientRects().length, row.querySelector('td a')!.getClientRects().length]),
    );
    expect(recentLines).toEqual(Array(6).fill([2, 1]));

    // A mistyped filter in a shared link: the page opens unfiltered and says what it left out.
    const response = await page.goto(`${app.origin}/analytics?range=7d&country=Germany`);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole('status').textContent()).toContain('country=Germany (not a two-letter country code)');
    expect(await totals(page, 'main')).toEqual(['7', '7', '6', '0']);

    expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);

  it('names a renamed zone as people know it where the browser gives it (Chromium says Asia/Calcutta): analytics times, a new event and coupon', async () => {
    const context = await browser.newContext({ timezoneId: 'Asia/Calcutta', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Asia/Calcutta');
    await signIn(page, app, owner);
    await page.goto(`${app.origin}/analytics`);
    const main = page.getByRole('main');
    expect(await main.textContent()).toContain('times in Asia/Kolkata');
    expect(await main.textContent()).not.toContain('Calcutta');
    // The server guesses from the zone cookie (the browser's since the last page), or a stale one (Berlin, last
    // week's trip); either way the form shows the browser's zone by its current name.
    const zoneOfNew = async (type: string) => {
      await page.goto(`${app.origin}/codes/new?type=${type}`);
      const zone = page.getByLabel('Time zone', { exact: true });
      return [await zone.getAttribute('data-zone-guess'), await zone.inputValue()];
    };
    expect(await zoneOfNew('EVENT')).toEqual(['Asia/Kolkata', 'Asia/Kolkata']);
    await context.addCookies([{ name: 'qroute_tz', value: 'Europe/Berlin', url: app.origin }]);
    expect(await zoneOfNew('COUPON')).toEqual(['Europe/Berlin', 'Asia/Kolkata']);
    await context.close();
  }, BROWSER_TEST_TIMEOUT);
});

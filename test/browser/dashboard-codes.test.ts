import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createClient } from '../../sdk/src/index.js';
import { createQrCode } from '../../src/codes/index.js';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, navigatedTo, screenshot, watchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';

// The page's clipboard, read back after "Copy short URL" (the project compiles without the DOM library).
declare const navigator: { clipboard: { readText(): Promise<string> } };

let database: TestDatabase;
let app: TestApp;
let browser: Browser;
let owner: TestPerson;
let member: TestPerson;

useBrowserSuite(async (suite) => {
  ({ database, app, browser } = suite);
  owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
  member = await createPerson(database.db, { accountId: owner.accountId, role: 'member' });
});

/** A phone scanning the printed code: the status, and where it was sent. */
/**
 * Every scan answered with a redirect, so a count of recorded scans can be checked exactly: a poll that waits for a
 * change to reach the redirect cache (by NOTIFY, so not instantly) may be answered from the old entry first, and
 * that scan is recorded like any other.
 */
let redirectsAnswered = 0;

async function scanShortUrl(shortUrl: string): Promise<{ status: number; location: string | null; body: string }> {
  const response = await fetch(shortUrl, { redirect: 'manual', headers: { 'User-Agent': IPHONE_SAFARI } });
  if (response.status === 302) redirectsAnswered += 1;
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
const flash = (page: Page) => page.locator('.flash').first().textContent();
const totalScans = (page: Page) => page.locator('.total-scans').textContent();

describe('codes in a browser', () => {
  it('a member creates a code, finds it, downloads it, copies and scans its short URL, edits, pauses, resumes and deletes it; an API-made code is listed like any other', async () => {
    const watched = await watchedContext(browser);
    await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    const page = await watched.newPage();
    await signIn(page, app, member);

    // Create.
    await page.getByRole('link', { name: 'New code' }).click();
    await expect.poll(() => heading(page)).toBe('New code');
    // Every dashboard page is checked with axe in dashboard-layout.test.ts, at a phone's and a laptop's size, with an
    // account full of data: the pages here are photographed (when asked for), not checked again.
    await screenshot(page, 'dashboard-codes-new');
    await page.getByLabel('Name').fill('Spring poster');
    await page.getByLabel('Destination URL').fill('https://example.com/spring');
    await page.getByRole('button', { name: 'Create code' }).click();
    await expect.poll(() => heading(page)).toBe('Spring poster');
    expect(await flash(page)).toContain('Code created.');

    // In the list, and back to it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Codes' }).click();
    await expect.poll(() => heading(page)).toBe('Codes');
    const row = page.getByRole('row', { name: /Spring poster/ });
    expect(await row.textContent()).toMatch(/Spring poster\s*Website \(URL\)\s*http:\/\/127\.0\.0\.1:\d+\/r\/[0-9A-Z]{8}\s*https:\/\/example\.com\/spring\s*0\s*Active/);
    expect(await page.locator('main').textContent()).toContain('Business plan · 1 of 1,000 codes used');
    await screenshot(page, 'dashboard-codes-list');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'dashboard-codes-list-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    await row.getByRole('link', { name: 'Spring poster' }).click();
    await expect.poll(() => heading(page)).toBe('Spring poster');
    const codePage = page.url();

    // The preview loads (an SVG from our origin).
    const preview = page.getByRole('img', { name: /^QR code for / });
    await expect.poll(() => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);

    // PNG at 1024 px: a real PNG, exactly that size, named after the code.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'PNG 1024 px' }).click()]);
    const png = await readFile((await download.path())!);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const width = png.readUInt32BE(16);
    expect(png.readUInt32BE(20)).toBe(width);
    expect(width).toBe(1024);
    expect(download.suggestedFilename()).toBe(`Spring poster-qr-${width}px.png`);

    // The file for a print shop: a plain GET form, so the browser saves what it answers.
    await page.getByLabel('Width of the code (mm)').fill('40');
    await page.getByLabel('Crop marks (outside the bleed)').check();
    const [printFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download print file' }).click()]);
    expect(printFile.suggestedFilename()).toBe('Spring poster-qr-40mm-bleed3mm.pdf');
    expect((await readFile((await printFile.path())!)).subarray(0, 5).toString()).toBe('%PDF-');

    // Copy the short URL, then scan it as a phone would; the count moves.
    await page.getByRole('button', { name: 'Copy short URL' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).isVisible()).toBe(true);
    const shortUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(shortUrl).toMatch(new RegExp(`^${app.origin}/r/[0-9A-Z]{8}$`));
    expect(await scanShortUrl(shortUrl)).toMatchObject({ status: 302, location: 'https://example.com/spring' });
    await page.reload();
    await expect.poll(() => totalScans(page)).toBe('1');
    await screenshot(page, 'dashboard-codes-code');

    // A new destination: the next scan goes there, and the history says who changed it.
    await page.getByLabel('Destination URL').fill('https://example.com/summer');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => flash(page)).toBe('Changes saved.');
    await expect.poll(async () => (await scanShortUrl(shortUrl)).location).toBe('https://example.com/summer');
    const history = page.getByRole('table').filter({ hasText: 'https://example.com/summer' });
    expect(await history.getByRole('row').nth(1).textContent()).toMatch(/https:\/\/example\.com\/spring\s*https:\/\/example\.com\/summer\s*/);
    expect(await history.getByRole('row').nth(1).textContent()).toContain(member.email);

    // Paused: a scan gets the paused page and is not counted; resumed: it leads on again.
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => flash(page)).toContain('Paused.');
    await expect.poll(async () => (await scanShortUrl(shortUrl)).status).toBe(404);
    expect((await scanShortUrl(shortUrl)).body).toContain('This QR code is paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => flash(page)).toContain('Resumed.');
    await expect.poll(async () => (await scanShortUrl(shortUrl)).status).toBe(302);
    await page.reload();
    await expect.poll(() => totalScans(page)).toBe(String(redirectsAnswered));

    // A code made through the API with a named key is listed like any other; its history names the key.
    const key = await createApiKey(database.db, owner.accountId, { name: 'Shop backend', createdByUserId: owner.userId });
    const made = await createClient({ baseUrl: app.apiUrl, apiKey: key.key }).createQrCode({ name: 'Autumn flyer', url: 'https://example.com/autumn' });
    await page.goto(`${app.origin}/codes`);
    expect(await page.getByRole('row', { name: /Autumn flyer/ }).textContent()).toMatch(/Autumn flyer\s*Website \(URL\)\s*http:\/\/.*\/r\/[0-9A-Z]{8}\s*https:\/\/example\.com\/autumn\s*0\s*Active/);
    // Active search: typing filters the list in place and keeps the URL in step.
    await page.getByLabel('Search').fill('autumn');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('autumn');
    await screenshot(page, 'dashboard-codes-search');
    await page.getByRole('link', { name: 'Autumn flyer' }).click();
    await expect.poll(() => heading(page)).toBe('Autumn flyer');
    expect(page.url()).toBe(`${app.origin}/codes/${made.id}`);
    expect(await page.getByRole('table').filter({ hasText: 'https://example.com/autumn' }).textContent()).toContain(`API key ${key.key.slice(0, 8)}…${key.key.slice(-4)} (Shop backend)`);

    // Delete, through the confirmation naming the code; it is gone from the list and its short URL is dead.
    await page.goto(codePage);
    await page.getByRole('link', { name: 'Delete this code…' }).click();
    await expect.poll(() => heading(page)).toBe('Delete “Spring poster”?');
    await screenshot(page, 'dashboard-codes-delete');
    await page.getByRole('button', { name: 'Delete code' }).click();
    await expect.poll(() => flash(page)).toContain('The code was deleted.');
    expect(new URL(page.url()).pathname).toBe('/codes');
    expect(await page.locator('tbody').textContent()).not.toContain('Spring poster');
    expect(await page.locator('tbody').textContent()).toContain('Autumn flyer');
    await expect.poll(async () => (await scanShortUrl(shortUrl)).status).toBe(404);

    expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);
});

/** An Android phone's Chrome, for the routing journey's second scanner. */
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

describe('routing in a browser (issue 28)', () => {
  it('a member adds a rule "iPhones → A", tries it as an iPhone and an Android phone, scans as both, and sees both counted per rule', async () => {
    const { code } = await createQrCode(database.db, { accountId: owner.accountId, name: 'Routed poster', destinationUrl: 'https://example.com/default', actor: { kind: 'user', userId: owner.userId } });
    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    await signIn(page, app, member);
    await page.goto(`${app.origin}/codes/${code.id}`);
    await page.getByRole('link', { name: /Route by device/ }).click();
    await expect.poll(() => heading(page)).toBe('Routing of Routed poster');

    await page.getByRole('link', { name: 'Add a rule…' }).click();
    await expect.poll(() => heading(page)).toBe('New rule');
    await page.getByLabel('Name (optional)').fill('iPhones');
    await page.getByLabel('iOS', { exact: true }).check();
    await page.getByLabel('Destination URL').fill('https://example.com/a');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => flash(page)).toBe('Rule added.');
    expect(await page.locator('.routing-rule').textContent()).toMatch(/iPhones\s*iOS\s*→ https:\/\/example\.com\/a/);

    // Try it: htmx swaps the answer in place.
    const answer = page.locator('#try-it-answer');
    await page.getByLabel('Operating system').fill('iOS');
    await page.getByLabel('Device').selectOption('mobile');
    await page.getByRole('button', { name: 'Try it' }).click();
    await expect.poll(() => answer.textContent()).toContain('rule 1 (“iPhones”) answers: to https://example.com/a');
    await page.getByLabel('Operating system').fill('Android');
    await page.getByRole('button', { name: 'Try it' }).click();
    await expect.poll(() => answer.textContent()).toContain("no rule matches: the code's destination, https://example.com/default");

    // The real short URL, as each phone: the change reaches the redirect's cache by notification, so the first
    // scans may still be answered the old way; every answer is counted, and tallied by where it led.
    const shortUrl = `${app.origin}/r/${code.slug}`;
    const led = { rule: 0, none: 0 };
    const scanAs = async (userAgent: string) => {
      const response = await fetch(shortUrl, { redirect: 'manual', headers: { 'User-Agent': userAgent } });
      const location = response.headers.get('location');
      if (location === 'https://example.com/a') led.rule += 1;
      else if (location === 'https://example.com/default') led.none += 1;
      return location;
    };
    await expect.poll(() => scanAs(IPHONE_SAFARI)).toBe('https://example.com/a');
    expect(await scanAs(ANDROID_CHROME)).toBe('https://example.com/default');

    await page.goto(`${app.origin}/codes/${code.id}/analytics?range=24h`);
    const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) }).locator('td').first().textContent();
    await expect.poll(async () => {
      await page.reload();
      return [await row('1\\. iPhones'), await row('No rule')];
    }, { timeout: 20_000 }).toEqual([String(led.rule), String(led.none)]);

    expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);
});

// Formerly a file of its own (dashboard-sign-in.test.ts), which started a database, an app and Chromium for this one
// test: it runs on this file's, with the same owner of an account named Acme Bakery, in a context of its own.
describe('signing in to the dashboard in a browser', () => {
  it('shows the labelled form, refuses a wrong password, signs in, and signs out; nothing leaves the server, no CSP violation, no serious axe violation', async () => {
    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    await page.goto(`${app.origin}/codes`);
    // Not signed in: the sign-in page, which brings the person back to where they were going.
    await navigatedTo(page, (url) => url.pathname === '/login');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-sign-in');

    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The email or the password is wrong.');

    await signIn(page, app, owner);
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('API & webhooks');
    expect(await page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('Acme Bakery');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await navigatedTo(page, (url) => url.pathname === '/login');
    await page.goto(`${app.origin}/codes`);
    await navigatedTo(page, (url) => url.pathname === '/login');

    expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);
});

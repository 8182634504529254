import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { processBatch } from '../../src/imports/run-import.js';
import { BROWSER_TEST_TIMEOUT, checkPage, watchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { readQrPng } from '../support/design-decode.js';
import type { TestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
let browser: Browser;
let owner: TestPerson;

useBrowserSuite(
  async (suite) => {
    ({ database, app, browser } = suite);
    owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
  },
  // The test moves the import on batch by batch to watch the bar follow, so the app's own import job is left out.
  { overrides: { webhookWorker: false }, tuning: { withoutJobs: ['imports'] } },
);

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
const progressValue = async (page: Page) => Number(await page.locator('#import-progress').getAttribute('value'));

/** 60 rows: TEXT, URL and WIFI codes, with two deliberate errors (lines 5 and 12). */
function sampleFile(): string {
  const lines = ['type;name;externalId;url;text;ssid;password;security'];
  for (let i = 0; i < 60; i++) {
    if (i === 3) lines.push('URL;Broken link;b-3;not a url;;;;');
    else if (i === 10) lines.push('WIFI;Open door;b-10;;;Guest;secret;none');
    else if (i % 3 === 0) lines.push(`URL;Poster ${i};p-${i};https://example.com/p/${i};;;;`);
    else if (i % 3 === 1) lines.push(`TEXT;Note ${i};n-${i};;"Line one; still one\r\nline two";;;`);
    else lines.push(`WIFI;Cafe ${i};w-${i};;;Cafe;coffee-${i};WPA`);
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

describe('bulk import in a browser', () => {
  it('uploads a file, reads the report, confirms, watches the progress bar advance, sees the result and downloads the CSV and the ZIPs', async () => {
    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    await signIn(page, app, owner);

    await page.goto(`${app.origin}/imports`);
    await expect.poll(() => heading(page)).toBe('Import codes');
    await checkPage(page, 'dashboard-import-upload', watched);
    // One template for every type: the type first, then every type's columns, with example rows of several types.
    const [template] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Template for all types' }).click()]);
    const templateLines = (await readFile((await template.path())!, 'utf8')).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(templateLines[0]).toMatch(/^type,name,externalId,design,url,givenName,familyName,/);
    expect(templateLines.slice(1).map((line) => line.split(',')[0])).toEqual(['URL', 'VCARD_PLUS', 'BUSINESS', 'EVENT', 'WIFI']);
    await page.getByLabel('CSV or ZIP file', { exact: true }).setInputFiles({ name: 'spring.csv', mimeType: 'text/csv', buffer: Buffer.from(sampleFile()) });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect.poll(() => heading(page)).toBe('Import of spring.csv');

    // The report: counts, every error by line and column, nothing created yet.
    const main = page.locator('main');
    expect(await main.textContent()).toContain('58 codes will be created');
    expect(await main.textContent()).toContain('2 rows have errors and will not be imported');
    const problems = page.locator('table.import-problems tbody tr');
    // Each error with the value as given beside it.
    expect(await problems.allTextContents()).toEqual(['5Errorurlnot a urlmust be an absolute URL', '12Errorpasswordsecretmust be empty for an open network']);
    expect(await main.textContent()).toContain('Confirming imports the 58 valid rows only');
    expect(await database.db.selectFrom('qr_codes').select('id').where('account_id', '=', owner.accountId).execute()).toHaveLength(0);
    await checkPage(page, 'dashboard-import-report', watched);

    // Confirm: the app runs no import job (see above), so the test moves it on batch by batch and watches the bar follow.
    await page.getByRole('button', { name: 'Import 58 codes' }).click();
    await expect.poll(() => page.locator('#import-progress').count()).toBe(1);
    expect(await progressValue(page)).toBe(0);
    expect(await page.locator('#import-status label').textContent()).toBe('0 of 58 rows done');
    await checkPage(page, 'dashboard-import-progress', watched);
    await processBatch(database.db, { siteUrl: app.config.siteUrl, batchSize: 20 });
    await expect.poll(() => progressValue(page), { timeout: 10_000 }).toBe(20);
    expect(await page.locator('#import-status label').textContent()).toBe('20 of 58 rows done');
    await processBatch(database.db, { siteUrl: app.config.siteUrl, batchSize: 20 });
    await expect.poll(() => progressValue(page), { timeout: 10_000 }).toBe(40);
    while (await processBatch(database.db, { siteUrl: app.config.siteUrl, batchSize: 20 })) {
      /* the rest */
    }

    // The result replaces the bar by itself (and polling stops: the result has no trigger).
    await expect.poll(() => page.getByRole('heading', { name: 'Result' }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('status').first().textContent()).toBe('58 codes created, 0 skipped, 0 failed, 2 left out for errors.');
    expect(await problems.allTextContents()).toEqual(['5Errorurlnot a urlmust be an absolute URL', '12Errorpasswordsecretmust be empty for an open network']);
    const firstRow = page.getByRole('row', { name: /Poster 0/ });
    expect(await firstRow.textContent()).toMatch(/^2Poster 0URLhttp:\/\/127\.0\.0\.1:\d+\/r\/[0-9A-Z]{8}$/);
    await checkPage(page, 'dashboard-import-result', watched);

    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV of the created codes' }).click()]);
    const csvLines = (await readFile((await csvDownload.path())!, 'utf8')).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(csvLines[0]).toBe('line,externalId,type,name,shortUrl,codeId');
    expect(csvLines).toHaveLength(59);
    expect(csvLines[1]).toMatch(/^2,p-0,URL,Poster 0,http:\/\/127\.0\.0\.1:\d+\/r\/[0-9A-Z]{8},qr_[0-9A-Z]{26}$/);
    const shortUrl = csvLines[1]!.split(',')[4]!;

    const [svgZip] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'ZIP of the QR codes (SVG)' }).click()]);
    const svgs = unzipSync(await readFile((await svgZip.path())!));
    expect(Object.keys(svgs)).toHaveLength(58);
    expect(Object.keys(svgs)[0]).toBe('00002-Poster 0.svg');
    expect(Buffer.from(svgs['00002-Poster 0.svg']!).toString('utf8')).toContain('<svg');

    const [pngZip] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'ZIP of the QR codes (PNG, 1024 px)' }).click()]);
    const pngs = unzipSync(await readFile((await pngZip.path())!));
    expect(Object.keys(pngs)).toHaveLength(58);
    expect(readQrPng(Buffer.from(pngs['00002-Poster 0.png']!))?.toLowerCase()).toBe(shortUrl.toLowerCase());

    // The list of past imports links back to it, with the time in the viewer's zone, named (here one the address asks for).
    await page.goto(`${app.origin}/imports?tz=Europe/Berlin`);
    const pastRow = page.getByRole('row', { name: /spring\.csv/ });
    expect(await pastRow.textContent()).toContain('Done');
    expect(await pastRow.locator('time').textContent()).toMatch(/ \d{2}:\d{2} CES?T$/);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);
});

import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createQrCode } from '../../src/codes/index.js';
import { designOfCode } from '../../src/designs/index.js';
import { BROWSER_TEST_TIMEOUT, checkPage, screenshot, watchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { png } from '../support/sample-files.js';
import type { TestApp } from '../support/test-app.js';

// A mark left on the page's window: still there means the page was not reloaded (no DOM library in this project).
declare const window: { designTestMark?: string };

let database: TestDatabase;
let app: TestApp;
let browser: Browser;
let owner: TestPerson;

useBrowserSuite(async (suite) => {
  ({ database, app, browser } = suite);
  owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
});

async function makeCode(name: string) {
  const { code } = await createQrCode(database.db, {
    accountId: owner.accountId,
    name,
    destinationUrl: 'https://example.com/menu',
    actor: { kind: 'user', userId: owner.userId },
  });
  return code;
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
const flash = (page: Page) => page.locator('.flash').first().textContent();
const preview = (page: Page) => page.locator('#design-preview').innerHTML();

describe('the design editor in a browser', () => {
  it(
    'previews each change without a reload, refuses a low-contrast pair in words, saves, saves as a template and applies it to another code',
    async () => {
      const menu = await makeCode('Menu card');
      const window_ = await makeCode('Shop window');
      const watched = await watchedContext(browser);
      const page = await watched.newPage();
      await signIn(page, app, owner);

      await page.goto(`${app.origin}/codes/${menu.id}`);
      await page.getByRole('link', { name: 'Change the design…' }).click();
      await expect.poll(() => heading(page)).toBe('Design of “Menu card”');
      expect(await page.locator('#design-preview svg').count()).toBe(1);
      // axe checks the editor, the template list, a template and its deletion in dashboard-layout.test.ts (every
      // dashboard page at a phone's and a laptop's size); here only the refused form, a state of its own.
      await screenshot(page, 'dashboard-designs-editor');

      // A change redraws the preview in place: same page (the mark survives), new colour in the server's SVG.
      await page.evaluate(() => {
        window.designTestMark = 'still here';
      });
      await page.getByLabel('Foreground colour (one colour)').fill('#1d3557');
      await expect.poll(() => preview(page), { timeout: 10_000 }).toContain('fill="#1d3557"');
      await page.getByLabel('Module shape').selectOption('dots');
      await page.getByLabel('Frame', { exact: true }).selectOption('banner');
      // The frame text is outlined: a path that carries its text as data.
      await expect.poll(() => preview(page), { timeout: 10_000 }).toContain('data-text="Scan me"');
      expect(await page.evaluate(() => window.designTestMark)).toBe('still here');

      // Too pale on white: the preview says why, in words, and saving is refused with the same reason.
      await page.getByLabel('Foreground colour (one colour)').fill('#dddddd');
      await expect.poll(() => page.locator('#design-preview').textContent(), { timeout: 10_000 }).toMatch(
        /Foreground colour: contrast with the background is 1\.\d\d:1; scanners need at least 3:1\./,
      );
      // The last preview that passed stays beside the reasons.
      expect(await page.locator('#design-preview svg').count()).toBe(1);
      expect(await preview(page)).toContain('fill="#1d3557"');
      expect(await page.locator('#design-preview').textContent()).toContain('The preview shows the last version of the design that passed');
      await checkPage(page, 'dashboard-designs-refused');
      await page.getByRole('button', { name: 'Save design' }).click();
      await expect.poll(() => flash(page)).toContain('Nothing was saved');
      expect(await page.locator('#design-preview').textContent()).toContain('Foreground colour: contrast with the background');
      expect((await designOfCode(database.db, owner.accountId, menu.id)).source).toBe('default');

      // A logo upload keeps the unsaved fields: only the logo part and the preview change, the page is not reloaded.
      await page.getByLabel('Foreground colour (one colour)').fill('#1d3557');
      await expect.poll(() => page.locator('#design-preview').textContent(), { timeout: 10_000 }).toContain('passes the scanning checks');
      await page.evaluate(() => {
        window.designTestMark = 'before the upload';
      });
      await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(32, 32, [230, 90, 20, 255]) });
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await expect.poll(() => page.locator('#design-logo-status').textContent(), { timeout: 10_000 }).toContain('Logo saved with the design');
      await expect.poll(() => preview(page), { timeout: 10_000 }).toContain('<image');
      expect(await page.getByLabel('Foreground colour (one colour)').inputValue()).toBe('#1d3557');
      expect(await page.getByLabel('Module shape').inputValue()).toBe('dots');
      expect(await page.evaluate(() => window.designTestMark)).toBe('before the upload');
      expect(await page.getByLabel('Remove the logo').isChecked()).toBe(false);

      // Saved.
      await page.getByRole('button', { name: 'Save design' }).click();
      await expect.poll(() => flash(page)).toContain('Design saved');
      expect(await designOfCode(database.db, owner.accountId, menu.id)).toMatchObject({
        source: 'own',
        design: { foreground: { type: 'solid', color: '#1d3557' }, moduleShape: 'dots', frame: { style: 'banner', text: 'Scan me' }, logo: { size: 0.2 } },
      });
      const image = await page.request.get(`${app.origin}/codes/${menu.id}/qr.svg`);
      expect(await image.text()).toContain('fill="#1d3557"');

      // Saved as a template, which this code now follows.
      await page.getByLabel('Template name').fill('Navy dots');
      await page.getByRole('button', { name: 'Save as template' }).click();
      await expect.poll(() => flash(page)).toContain('Saved as a template');
      expect(await page.locator('main').textContent()).toContain('This code follows the template “Navy dots”');

      // Applied to another code.
      await page.goto(`${app.origin}/codes/${window_.id}/design`);
      await page.getByLabel('Use template').selectOption({ label: 'Navy dots' });
      await page.getByRole('button', { name: 'Use template' }).click();
      await expect.poll(() => flash(page)).toContain('This code now follows the template.');
      expect(await preview(page)).toContain('fill="#1d3557"');
      const other = await page.request.get(`${app.origin}/codes/${window_.id}/download?format=png&size=512`);
      expect(other.status()).toBe(200);

      // The template list: two codes follow it, with a preview.
      await page.getByRole('link', { name: 'Design templates' }).click();
      await expect.poll(() => heading(page)).toBe('Design templates');
      expect(await page.getByRole('row', { name: /Navy dots/ }).textContent()).toMatch(/Navy dots\s*2/);
      await expect.poll(() => page.locator('img.design-thumbnail').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
      await screenshot(page, 'dashboard-designs-list');

      await page.getByRole('link', { name: 'Edit' }).click();
      await expect.poll(() => heading(page)).toBe('Template “Navy dots”');
      expect(await page.getByLabel('Template name').inputValue()).toBe('Navy dots');
      await screenshot(page, 'dashboard-designs-template');
      await page.goto(`${app.origin}/designs`);
      await page.getByRole('link', { name: 'Delete…' }).click();
      expect(await page.locator('main').textContent()).toContain('2 codes follow it. They go back to the default look');
      await screenshot(page, 'dashboard-designs-delete');

      expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
      expect(await watched.cspViolations(page)).toEqual([]);
      await watched.context.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

import { readFile } from 'node:fs/promises';
import PDFDocument from 'pdfkit';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setBrandColor, setBrandLogo } from '../../src/accounts/branding.js';
import { CODE_TYPE_NAMES, type CodeTypeName, kindOf } from '../../src/codes/types/index.js';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, screenshot, watchedContext } from '../support/browser.js';
import { storedExample } from '../support/code-type-examples.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { createTestTypedCode } from '../support/factories.js';
import type { TestDatabase } from '../support/database.js';
import { mp3, storeSampleFile } from '../support/sample-files.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';

// Read in the page (the project compiles without the DOM library).
declare const document: { querySelector(selector: string): unknown };
declare function getComputedStyle(element: unknown): { backgroundColor: string; color: string; borderTopColor: string };

const PHONE = { width: 390, height: 844 };

/** A logo as a designer exports it: SVG, rasterised to PNG on upload. */
const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 90" width="300" height="90">' +
    '<rect width="300" height="90" rx="18" fill="#3b2a1a"/><circle cx="45" cy="45" r="28" fill="#ffd400"/>' +
    '<rect x="90" y="30" width="180" height="30" rx="8" fill="#ffffff"/></svg>',
);

let database: TestDatabase;
let app: TestApp;
let browser: Browser;

useBrowserSuite((suite) => {
  ({ database, app, browser } = suite);
});

const PAGE_TYPES = CODE_TYPE_NAMES.filter((type) => kindOf(type) === 'page');

/** A code of `person`'s account made as the dashboard makes it; its slug. */
async function createCode(person: TestPerson, type: CodeTypeName, name: string, content: unknown): Promise<string> {
  return (await createTestTypedCode(database.db, person, { type, name, content, siteUrl: app.config.siteUrl })).slug;
}

async function createCodes(person: TestPerson): Promise<Map<CodeTypeName, string>> {
  const slugs = new Map<CodeTypeName, string>();
  for (const type of PAGE_TYPES) slugs.set(type, await createCode(person, type, `A ${type} code`, await storedExample(database.db, person.accountId, type)));
  return slugs;
}

async function pageBytes(slugs: Map<CodeTypeName, string>): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const [type, slug] of slugs) {
    const res = await fetch(`${app.origin}/r/${slug}`, { headers: { 'User-Agent': IPHONE_SAFARI } });
    sizes[type] = (await res.arrayBuffer()).byteLength;
  }
  return sizes;
}

/**
 * A request to another site. Chrome's PDF viewer (the PDF page's preview) loads its own chrome:// and
 * chrome-extension:// files, which never leave the phone.
 */
function isThirdParty(url: string): boolean {
  return /^https?:/.test(url) && new URL(url).origin !== app.origin;
}

const inPage = <T,>(page: Page, fn: () => T) => page.evaluate(fn);

/** A real one-page PDF (the sample file has no page), so the preview has something to draw. */
async function onePagePdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4' });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.fontSize(32).text('Harbour Café', 72, 72).fontSize(18).text('Espresso 2.50\nCappuccino 3.20\nCroissant 2.00');
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

describe('landing pages on a phone', () => {
  it('every page type opens from its short URL in the account colour and logo, with no third-party request, no CSP violation and no serious axe violation', async () => {
    const person = await createPerson(database.db, { accountName: 'Corner Bakery' });
    const slugs = await createCodes(person);
    const plain = await pageBytes(slugs);

    // A yellow: white text would be unreadable on it (1.5:1), so the buttons carry black text.
    await setBrandColor(database.db, person.accountId, '#ffd400');
    const logo = await storeSampleFile(database.db, person.accountId, 'logo', 'logo.svg', LOGO_SVG);
    await setBrandLogo(database.db, person.accountId, logo.id);
    await expect.poll(async () => (await pageBytes(slugs)).TEXT, { timeout: 5_000 }).toBeGreaterThan(plain.TEXT!);
    const branded = await pageBytes(slugs);
    console.log('landing page bytes (HTML) without a logo / with colour and logo', JSON.stringify({ plain, branded, logoPngBytes: logo.sizeBytes }));

    const watched = await watchedContext(browser, { viewport: PHONE });
    for (const [type, slug] of slugs) {
      if (type === 'CONTACT') continue; // answered with the .vcf itself, not a page
      const page = await watched.newPage();
      await page.goto(`${app.origin}/r/${slug}`);
      await page.waitForLoadState('load');
      expect(await watched.cspViolations(page), type).toEqual([]);
      expect(await accessibilityViolations(page), type).toEqual([]);

      // The logo: loaded, named by the account, in its fixed box.
      const logoImage = page.getByRole('img', { name: 'Corner Bakery' });
      expect(await logoImage.getAttribute('src'), type).toBe(`/files/${logo.id}`);
      await expect.poll(() => logoImage.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await logoImage.boundingBox(), type).toMatchObject({ width: 160, height: 48 });
      // The colour: the bar on top, and the buttons (black text on the yellow).
      expect(await inPage(page, () => getComputedStyle(document.querySelector('body')).borderTopColor), type).toBe('rgb(255, 212, 0)');
      if ((await page.locator('a.b').count()) > 0) {
        const button = page.locator('a.b').first();
        expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor), type).toBe('rgb(255, 212, 0)');
        expect(await button.evaluate((el) => getComputedStyle(el).color), type).toBe('rgb(0, 0, 0)');
      }
      await screenshot(page, `landing-${type.toLowerCase()}`);
      // The pages follow the phone's dark mode (color-scheme): readable there too.
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await accessibilityViolations(page), `${type}, dark mode`).toEqual([]);
      if (type === 'BUSINESS') await screenshot(page, 'landing-business-dark');
      await page.close();
    }
    const foreign = watched.requests.filter(isThirdParty);
    expect(foreign).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT * 3);

  it('at 390 px: a long heading wraps, social links carry their marks, the coupon is a ticket whose Copy button copies, the PDF shows inline, an address links to a map search, and a paused, a not yet active and an expired code keep their brand', async () => {
    const person = await createPerson(database.db, { accountName: 'Harbour Café' });
    await setBrandColor(database.db, person.accountId, '#7b1fa2');
    const logo = await storeSampleFile(database.db, person.accountId, 'logo', 'logo.svg', LOGO_SVG);
    await setBrandLogo(database.db, person.accountId, logo.id);
    const menu = await storeSampleFile(database.db, person.accountId, 'pdf', 'menu.pdf', await onePagePdf());
    const slugs = {
      email: await createCode(person, 'EMAIL', 'Email', { to: 'reservations.and.group.bookings@harbour-cafe-and-bakery.example', subject: 'Table' }),
      social: await createCode(person, 'SOCIAL_MEDIA', 'Social', {
        title: 'Follow us',
        links: (['instagram', 'facebook', 'x', 'linkedin', 'tiktok', 'other'] as const).map((network) => ({ network, url: `https://${network}.example/harbour` })),
      }),
      coupon: await createCode(person, 'COUPON', 'Coupon', { title: '2 for 1 coffee', code: 'HARBOUR-2FOR1', expiresAt: '2099-12-31T23:59', timezone: 'Europe/Berlin', terms: 'One per visit' }),
      pdf: await createCode(person, 'PDF', 'Menu', { fileId: menu.id, title: 'Our menu' }),
      paused: await createCode(person, 'TEXT', 'Paused', { text: 'Back soon' }),
      notYet: await createCode(person, 'TEXT', 'Not yet', { text: 'Soon' }),
      expired: await createCode(person, 'TEXT', 'Expired', { text: 'Over' }),
      business: await createCode(person, 'BUSINESS', 'Shop', { name: 'Harbour Café', address: 'Hafenstraße 5\n20457 Hamburg', phone: '+49 40 1234567' }),
    };
    await database.db.updateTable('qr_codes').set({ active: false }).where('slug', '=', slugs.paused).execute();
    // The schedule's two answers (issue 28): before the start, and past the expiry without an expired URL.
    await database.db.updateTable('qr_codes').set({ active_from: new Date(Date.now() + 86_400_000) }).where('slug', '=', slugs.notYet).execute();
    await database.db.updateTable('qr_codes').set({ expires_at: new Date(Date.now() - 86_400_000) }).where('slug', '=', slugs.expired).execute();

    const watched = await watchedContext(browser, { viewport: PHONE });
    await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    const page = await watched.newPage();
    const open = async (name: keyof typeof slugs, status = 200) => {
      const answer = await page.goto(`${app.origin}/r/${slugs[name]}`);
      expect(answer?.status(), name).toBe(status);
      // Nothing wider than the phone: the page never scrolls sideways.
      expect(await inPage(page, () => (document as unknown as { documentElement: { scrollWidth: number } }).documentElement.scrollWidth), name).toBeLessThanOrEqual(PHONE.width);
      expect(await accessibilityViolations(page), name).toEqual([]);
      await screenshot(page, `landing-390-${name}`);
    };

    await open('email');
    await open('social');
    expect(await page.locator('a.b').count()).toBe(6);
    expect(await page.locator('a.b svg.i').count()).toBe(6);
    expect(await page.getByRole('link', { name: 'Instagram' }).getAttribute('href')).toBe('https://instagram.example/harbour');

    await open('coupon');
    expect(await page.locator('.cp .cc').textContent()).toBe('HARBOUR-2FOR1');
    expect(await page.locator('.cp').evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(123, 31, 162)');
    const copy = page.locator('.cp button');
    expect(await copy.textContent()).toBe('Copy code');
    // The clipboard answers a focused page only.
    await page.bringToFront();
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    expect(await page.evaluate(() => (navigator as unknown as { clipboard: { readText(): Promise<string> } }).clipboard.readText())).toBe('HARBOUR-2FOR1');

    await open('pdf');
    expect(await page.locator('object.pv').getAttribute('data')).toBe(`/files/${menu.id}`);
    expect(await page.locator('object.pv').getAttribute('type')).toBe('application/pdf');
    expect(await page.getByRole('link', { name: 'Open the PDF' }).getAttribute('href')).toBe(`/files/${menu.id}`);
    expect(await page.getByRole('link', { name: 'Download the PDF' }).getAttribute('href')).toBe(`/files/${menu.id}?download=1`);

    await open('business');
    const map = page.getByRole('link', { name: /Hafenstraße 5/ });
    expect(await map.getAttribute('href')).toBe('https://www.google.com/maps/search/?api=1&query=Hafenstra%C3%9Fe%205%2C%2020457%20Hamburg');
    expect(await page.locator('a.b svg.i').count()).toBe(1);

    await open('paused', 404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This QR code is paused');
    expect(await page.getByRole('img', { name: 'Harbour Café' }).getAttribute('src')).toBe(`/files/${logo.id}`);
    expect(await inPage(page, () => getComputedStyle(document.querySelector('body')).borderTopColor)).toBe('rgb(123, 31, 162)');
    for (const [name, status, heading] of [['notYet', 404, 'This code is not active yet'], ['expired', 410, 'This code has expired']] as const) {
      await open(name, status);
      expect(await page.getByRole('heading', { level: 1 }).textContent(), name).toBe(heading);
      expect(await page.getByRole('img', { name: 'Harbour Café' }).getAttribute('src'), name).toBe(`/files/${logo.id}`);
    }

    for (const opened of watched.context.pages()) expect(await watched.cspViolations(opened)).toEqual([]);
    expect(watched.requests.filter(isThirdParty)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);

  it('an owner picks a colour (the preview follows it), uploads a logo, and sees both on the sample page', async () => {
    const owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    await signIn(page, app, owner);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('link', { name: 'Landing pages: colour and logo' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Landing pages');

    // htmx redraws the preview as the colour is typed, before anything is saved.
    await page.getByLabel('Colour as hex').fill('#0a7c3e');
    await expect.poll(() => page.locator('#brand-preview [data-accent]').getAttribute('data-accent'), { timeout: 10_000 }).toBe('#0a7c3e');
    await page.getByRole('button', { name: 'Save colour' }).click();
    await expect.poll(() => page.locator('.flash').first().textContent()).toContain('Colour saved.');

    await page.getByLabel('Logo file').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: LOGO_SVG });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await expect.poll(() => page.locator('.flash').first().textContent()).toContain('Logo saved.');
    expect(await page.getByRole('img', { name: 'Current logo of Acme Bakery' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-branding');

    await page.getByRole('link', { name: 'Open a sample page' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Corner Bakery');
    expect(await page.getByRole('img', { name: 'Acme Bakery' }).getAttribute('src')).toMatch(/^\/files\/fil_/);
    expect(await page.locator('a.b').first().evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(10, 124, 62)');
    expect(await watched.cspViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-branding-sample');
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);
});

interface MediaState {
  readyState: number;
  duration: number;
  error: number | null;
}
/** Read in the page: the state of the first media element `sel` matches (Chromium's own page for a media URL holds one). */
const mediaState = (sel: string): MediaState | null => {
  const media = document.querySelector(sel) as { readyState: number; duration: number; error: { code: number } | null } | null;
  return media ? { readyState: media.readyState, duration: media.duration, error: media.error ? media.error.code : null } : null;
};

describe('audio and video on a phone', () => {
  it('the MP3 page plays its file (metadata and a finite duration, through range requests), and its download link downloads it', async () => {
    const person = await createPerson(database.db, { accountName: 'Radio Bakery' });
    // 2.6 s of silence: 100 frames of 1,152 samples at 44.1 kHz.
    const audio = await storeSampleFile(database.db, person.accountId, 'audio', 'jingle.mp3', mp3(100));
    const slug = await createCode(person, 'MP3', 'Jingle', { fileId: audio.id, title: 'Our jingle' });
    const watched = await watchedContext(browser, { viewport: PHONE });
    const ranges: string[] = [];
    watched.context.on('request', (request) => {
      if (request.url().includes(audio.id)) ranges.push(request.headers().range ?? 'none');
    });
    const page = await watched.newPage();
    await page.goto(`${app.origin}/r/${slug}`);
    const state = () => page.evaluate(mediaState, 'audio');
    await expect.poll(async () => (await state())?.readyState ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const loaded = (await state())!;
    expect(loaded.error).toBeNull();
    expect(loaded.duration).toBeGreaterThan(2.5);
    expect(loaded.duration).toBeLessThan(2.7);
    expect(ranges.some((range) => range.startsWith('bytes='))).toBe(true);
    expect(await watched.cspViolations(page)).toEqual([]);

    // Opened straight from its URL (a link shared, an old page's link), the file plays in the browser's own player.
    const direct = await watched.newPage();
    await direct.goto(`${app.origin}/files/${audio.id}`);
    const directState = () => direct.evaluate(mediaState, 'video, audio');
    await expect.poll(async () => (await directState())?.readyState ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect((await directState())!.duration).toBeGreaterThan(2.5);
    expect(await watched.cspViolations(direct)).toEqual([]);
    // The download link saves the file instead of opening it.
    const link = page.getByRole('link', { name: 'Download the audio file' });
    const href = await link.getAttribute('href');
    const answer = await fetch(`${app.origin}${href}`);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="jingle.mp3"; filename*=UTF-8''jingle.mp3`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('jingle.mp3');
    expect((await readFile((await download.path())!)).equals(mp3(100))).toBe(true);

    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);

  it('the video page plays its file inline on a phone, and its download link answers with an attachment', async () => {
    const person = await createPerson(database.db, { accountName: 'Film Bakery' });
    const watched = await watchedContext(browser, { viewport: PHONE });
    const page = await watched.newPage();
    const video = await storeSampleFile(database.db, person.accountId, 'video', 'clip.webm', await recordedWebm(page));
    const slug = await createCode(person, 'VIDEO', 'Clip', { fileId: video.id, title: 'Our clip' });
    await page.goto(`${app.origin}/r/${slug}`);
    await expect.poll(async () => (await page.evaluate(mediaState, 'video'))?.readyState ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect((await page.evaluate(mediaState, 'video'))!.error).toBeNull();
    expect(await watched.cspViolations(page)).toEqual([]);
    const href = await page.getByRole('link', { name: 'Download the video' }).getAttribute('href');
    const answer = await fetch(`${app.origin}${href}`, { headers: { range: 'bytes=0-99' } });
    expect(answer.status).toBe(206);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="clip.webm"/);
    // Opened straight from its URL, the browser's own player plays it too.
    await page.goto(`${app.origin}/files/${video.id}`);
    await expect.poll(async () => (await page.evaluate(mediaState, 'video'))?.readyState ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);
});

/** A real WebM video (VP8, 64×48, about half a second), recorded from a canvas by the browser's MediaRecorder. */
async function recordedWebm(page: Page): Promise<Buffer> {
  await page.goto('about:blank');
  const base64 = await page.evaluate(`(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d');
    const recorder = new MediaRecorder(canvas.captureStream(20), { mimeType: 'video/webm;codecs=vp8' });
    const chunks = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    // Ten frames drawn 50 ms apart: a recording needs time to pass to have a length, so this span is what the test
    // makes (half a second of video), not a wait for something to happen.
    for (let frame = 0; frame < 10; frame++) {
      context.fillStyle = frame % 2 ? '#c00' : '#00c';
      context.fillRect(0, 0, 64, 48);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  })()`);
  return Buffer.from(base64 as string, 'base64');
}

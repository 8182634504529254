import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, checkPage, navigatedTo, screenshot, watchedContext, type WatchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { png } from '../support/sample-files.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import { strictComponent, typesOf } from '../support/strict-calendar.js';
import type { TestApp } from '../support/test-app.js';
import { useWebhookReceiver, verifyServiceSignature, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Three types the whole way in a browser (the other fourteen go through their real forms over HTTP in
 * test/integration/dashboard-code-types.test.ts): a redirect type (APP), a page type with uploads (IMAGES) and
 * a list-heavy one (BUSINESS). Each is created through the type picker and its form, opened as a phone would,
 * counted on the code page with a signed webhook, edited after "printing", and scanned again.
 *
 * Each form reached from the picker is checked as it opens (checkPage: axe, CSP, a screenshot), here for the four
 * types picked below and in test/browser/dashboard-every-type.test.ts for the other thirteen, which also checks that
 * the picker offers exactly these seventeen: each form is loaded once, with all its checks. The tests share one
 * signed-in page (a sign-in is a password hash on the server and a page load in the browser).
 */

// The images' sizes, read in the phone's page (the project compiles without the DOM library).
declare const document: { querySelectorAll(selector: string): ArrayLike<{ naturalWidth: number; complete: boolean }> };

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
/** Not counted (isbot), yet still an iPhone or an Android phone to the OS check: for waiting on an edit to arrive. */
const crawlerOn = (userAgent: string) => `${userAgent} (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`;

let database: TestDatabase;
let app: TestApp;
let browser: Browser;
let receiver: WebhookReceiver;
let person: TestPerson;
let secret: string;
let watched: WatchedContext;
let page: Page;

useWebhookReceiver((started) => {
  receiver = started;
});
useBrowserSuite(
  async (suite) => {
    ({ database, app, browser } = suite);
    person = await createPerson(database.db, { accountName: 'Acme Bakery' });
    secret = (await setWebhook(database.db, app.box, { accountId: person.accountId, url: receiver.url, allowPrivate: true })).secret!;
    watched = await watchedContext(browser);
    page = await watched.newPage();
  },
  { tuning: { webhooks: { worker: { pollIntervalMs: 100 } } } },
);

/**
 * The code page's total, after a reload. Polled after the scan's signed webhook has arrived: the delivery is written
 * in the same transaction as the scan, so the first reload usually shows it (each reload renders the whole page).
 */
const totalScans = async (page: Page) => {
  await page.reload();
  return page.locator('.total-scans').textContent();
};

/** The signed webhooks that arrived for the code on the page. */
function webhooksFor(codeId: string) {
  return receiver.received.filter((request) => request.rawBody.toString().includes(codeId));
}

async function expectSignedWebhooks(codeId: string, count: number): Promise<void> {
  await expect.poll(() => webhooksFor(codeId).length, { timeout: 15_000 }).toBe(count);
  for (const call of webhooksFor(codeId)) expect(verifyServiceSignature(call.rawBody, call.headers['x-service-signature'], secret)).toBe(true);
}

let signedIn = false;
/** The file's one page, signed in by the first test that needs it (signIn polls, which only a test may do). */
async function signedInPage(): Promise<{ watched: WatchedContext; page: Page }> {
  if (!signedIn) await signIn(page, app, person);
  signedIn = true;
  await page.goto(`${app.origin}/codes`);
  return { watched, page };
}

/**
 * Opens "New code" and picks the type by its plain-words name; the form, as it opens, is marked in the picker and
 * passes checkPage (axe, no CSP violation, a screenshot).
 */
async function pickType(page: Page, label: string): Promise<void> {
  await page.getByRole('link', { name: 'New code' }).click();
  await page.getByRole('navigation', { name: 'Type' }).getByRole('link', { name: label, exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { level: 2, name: label }).count()).toBe(1);
  expect(await page.locator('.type-picker a[aria-current="page"]').textContent()).toBe(label);
  await checkPage(page, `code-types-form-${label.toLowerCase().replace(/[^a-z]+/g, '-').replace(/-$/, '')}`, watched);
}

async function codeIdOf(page: Page): Promise<string> {
  await navigatedTo(page, (url) => /^\/codes\/qr_[0-9A-Z]+$/.test(url.pathname));
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** A phone's browser, to open a page type's short URL as a person would. */
async function phonePage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ userAgent: IPHONE_SAFARI, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  return { page, close: async () => {
    expect(blocked, 'CSP violations on the landing page').toEqual([]);
    await context.close();
  } };
}

/**
 * The names of the opening-hours time fields narrower than their widest value in a 12-hour locale: the text's
 * width in the field's font, its padding and border, and 24 px for the picker's icon. A string (the project
 * compiles without the DOM library).
 */
const TIME_FIELDS_TOO_NARROW = `(() => {
  const context = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('.opening-hours input[type="time"]')].filter((input) => {
    const style = getComputedStyle(input);
    context.font = style.font;
    const px = (value) => parseFloat(value) || 0;
    const needed = context.measureText('00:00 PM').width + px(style.paddingLeft) + px(style.paddingRight) + px(style.borderLeftWidth) + px(style.borderRightWidth) + 24;
    return input.getBoundingClientRect().width < needed;
  }).map((input) => input.name);
})()`;

async function redirectOf(shortUrl: string, userAgent: string): Promise<string | null> {
  const response = await fetch(shortUrl, { redirect: 'manual', headers: { 'User-Agent': userAgent } });
  expect(response.status).toBe(302);
  return response.headers.get('location');
}

describe('code types in a browser', () => {
  it('SOCIAL_MEDIA: "Add another profile" fetches more rows than the spare ones, and all five links reach the page', async () => {
    const { watched, page } = await signedInPage();
    await pickType(page, 'Social media links');
    await page.getByLabel('Name', { exact: true }).fill('Follow us');
    await page.getByRole('button', { name: 'Add another profile' }).click();
    await expect.poll(() => page.getByLabel('Profile 4: Profile URL').count()).toBe(1);
    await page.getByRole('button', { name: 'Add another profile' }).click();
    await expect.poll(() => page.getByLabel('Profile 5: Profile URL').count()).toBe(1);
    const networks = ['instagram', 'github', 'mastodon', 'youtube', 'bluesky'];
    for (const [i, network] of networks.entries()) {
      await page.getByLabel(`Profile ${i + 1}: Network`).selectOption(network);
      await page.getByLabel(`Profile ${i + 1}: Profile URL`).fill(`https://${network}.example/acme`);
    }
    await checkPage(page, 'code-types-social-rows', watched);
    await page.getByRole('button', { name: 'Create code' }).click();
    const codeId = await codeIdOf(page);
    const shortUrl = (await page.locator('#short-url').textContent())!.trim();
    const phone = await phonePage();
    await phone.page.goto(shortUrl);
    for (const network of networks) expect(await phone.page.locator(`a[href="https://${network}.example/acme"]`).count(), network).toBe(1);
    await expectSignedWebhooks(codeId, 1);
    await expect.poll(() => totalScans(page)).toBe('1');
    await phone.close();
  }, BROWSER_TEST_TIMEOUT);

  it('APP: each phone is sent to its own store and everyone else to the fallback, counted with signed webhooks; a new Google Play link reaches the next Android scan', async () => {
    const { watched, page } = await signedInPage();
    await pickType(page, 'App download');
    await page.getByLabel('Name', { exact: true }).fill('App poster');
    await page.getByLabel('App Store URL').fill('https://apps.apple.com/app/id111');
    await page.getByLabel('Google Play URL').fill('https://play.google.com/store/apps/details?id=com.acme');
    await page.getByLabel('Fallback URL').fill('https://acme.example/app');
    await page.getByRole('button', { name: 'Create code' }).click();
    const codeId = await codeIdOf(page);
    expect(await page.locator('.code-type').textContent()).toBe('App download');
    expect(await page.getByText('Redirects iPhones to the App Store').count()).toBe(1);
    await checkPage(page, 'code-types-app-code', watched);
    const shortUrl = (await page.locator('#short-url').textContent())!.trim();

    expect(await redirectOf(shortUrl, IPHONE_SAFARI)).toBe('https://apps.apple.com/app/id111');
    expect(await redirectOf(shortUrl, ANDROID_CHROME)).toBe('https://play.google.com/store/apps/details?id=com.acme');
    await expectSignedWebhooks(codeId, 2);
    await expect.poll(() => totalScans(page)).toBe('2');

    await page.getByLabel('Google Play URL').fill('https://play.google.com/store/apps/details?id=com.acme.v2');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.flash').first().textContent()).toBe('Changes saved.');
    expect(await page.getByLabel('Google Play URL').inputValue()).toBe('https://play.google.com/store/apps/details?id=com.acme.v2');
    await expect.poll(() => redirectOf(shortUrl, crawlerOn(ANDROID_CHROME))).toBe('https://play.google.com/store/apps/details?id=com.acme.v2');
    expect(await redirectOf(shortUrl, ANDROID_CHROME)).toBe('https://play.google.com/store/apps/details?id=com.acme.v2');
    expect(await redirectOf(shortUrl, IPHONE_SAFARI)).toBe('https://apps.apple.com/app/id111');
    await expectSignedWebhooks(codeId, 4);
    await expect.poll(() => totalScans(page)).toBe('4');
  }, BROWSER_TEST_TIMEOUT);

  it('IMAGES: a refused form keeps its uploads, the gallery opens on a phone with every image loaded, and removing and adding images reaches the next scan', async () => {
    const { watched, page } = await signedInPage();
    await pickType(page, 'Image gallery');
    const images = [
      { name: 'bread.png', mimeType: 'image/png', buffer: png(40, 30, [200, 120, 40, 255]) },
      { name: 'cake.png', mimeType: 'image/png', buffer: png(40, 30, [240, 200, 220, 255]) },
    ];
    await page.getByLabel('Name', { exact: true }).fill('Bakes gallery');
    await page.getByLabel('Title').fill('x'.repeat(201));
    await page.getByLabel('Add images').setInputFiles(images);
    // A title too long: refused, and the two images are kept with the form rather than lost.
    await page.getByRole('button', { name: 'Create code' }).click();
    await expect.poll(() => page.locator('.flash-error').first().textContent()).toBe('The code was not created: see the messages below.');
    // At its field (an error summary at the top may say it again).
    expect(await page.locator('#new-code-content-title-error').textContent()).toBe('Title must be at most 200 characters.');
    expect(await page.getByLabel('Remove bread.png').count()).toBe(1);
    expect(await page.getByLabel('Remove cake.png').count()).toBe(1);
    await checkPage(page, 'code-types-images-refused', watched);
    await page.getByLabel('Title').fill('Our bakes');
    await page.getByRole('button', { name: 'Create code' }).click();
    const codeId = await codeIdOf(page);
    await checkPage(page, 'code-types-images-code', watched);
    const shortUrl = (await page.locator('#short-url').textContent())!.trim();

    const phone = await phonePage();
    await phone.page.goto(shortUrl);
    expect(await phone.page.getByRole('img', { name: 'Our bakes, image 2 of 2' }).count()).toBe(1);
    await phone.page.getByRole('img').last().scrollIntoViewIfNeeded();
    await expect.poll(() => phone.page.evaluate(() => Array.from(document.querySelectorAll('img')).map((img) => img.complete && img.naturalWidth))).toEqual([40, 40]);
    expect(await accessibilityViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, 'code-types-images-phone');
    await expectSignedWebhooks(codeId, 1);
    await expect.poll(() => totalScans(page)).toBe('1');

    // The saved images show as thumbnails; images just chosen too, before they are sent, and one can be taken out.
    await expect.poll(() => page.locator('[data-gallery] img.gallery-thumb').evaluateAll((imgs) => imgs.map((img) => (img as unknown as { naturalWidth: number }).naturalWidth))).toEqual([40, 40]);
    await page.getByLabel('Remove bread.png').check();
    await page.getByLabel('Add images').setInputFiles([
      { name: 'pie.png', mimeType: 'image/png', buffer: png(40, 30, [120, 60, 20, 255]) },
      { name: 'tart.png', mimeType: 'image/png', buffer: png(40, 30, [90, 30, 10, 255]) },
    ]);
    await expect.poll(() => page.locator('[data-gallery-pending] img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')?.slice(0, 15)))).toEqual(['data:image/png;', 'data:image/png;']);
    await page.getByRole('button', { name: 'Take out tart.png' }).click();
    expect(await page.locator('[data-gallery-pending] li').count()).toBe(1);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.flash').first().textContent()).toBe('Changes saved.');
    expect(await page.getByLabel('Remove bread.png').count()).toBe(0);
    expect(await page.getByLabel('Remove cake.png').count()).toBe(1);
    expect(await page.getByLabel('Remove pie.png').count()).toBe(1);
    expect(await page.getByLabel('Remove tart.png').count()).toBe(0);
    await expect.poll(async () => (await fetch(shortUrl, { headers: { 'User-Agent': crawlerOn(IPHONE_SAFARI) } })).text()).toContain('Our bakes, image 2 of 2');
    await phone.page.goto(shortUrl);
    expect(await phone.page.getByRole('img').evaluateAll((imgs) => imgs.length)).toBe(2);
    await expectSignedWebhooks(codeId, 2);
    await expect.poll(() => totalScans(page)).toBe('2');

    // Up puts pie first; the order is saved and the next scan shows it.
    const savedOrder = () => page.locator('[data-gallery] input[type=hidden]').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('value')));
    const [cake, pie] = await savedOrder();
    await page.getByRole('button', { name: 'Up: move pie.png earlier' }).click();
    expect(await page.getByLabel('Position of pie.png').inputValue()).toBe('1');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.flash').first().textContent()).toBe('Changes saved.');
    expect(await savedOrder()).toEqual([pie, cake]);
    const shownOrder = async () => [...(await (await fetch(shortUrl, { headers: { 'User-Agent': crawlerOn(IPHONE_SAFARI) } })).text()).matchAll(/<img src="\/files\/([^"]+)"/g)].map((m) => m[1]);
    await expect.poll(shownOrder).toEqual([pie, cake]);
    await screenshot(page, 'code-types-images-gallery-form');
    await phone.close();
  }, BROWSER_TEST_TIMEOUT);

  it('BUSINESS: opening hours with a lunch break, a wrong interval shown at its field, the page on a phone, and changed hours on the next scan', async () => {
    const { watched, page } = await signedInPage();
    await pickType(page, 'Business page');
    await page.getByLabel('Name', { exact: true }).fill('Shop window');
    await page.getByLabel('Business name').fill('Acme Bakery');
    await page.getByLabel('Monday opens (1)').fill('08:00');
    await page.getByLabel('Monday closes (1)').fill('12:00');
    await page.getByLabel('Monday opens (2)').fill('13:00');
    await page.getByLabel('Monday closes (2)').fill('18:00');
    // The same hours every weekday in one click; Saturday is left as it is.
    await page.getByRole('button', { name: 'Copy Monday to Tuesday–Friday' }).click();
    expect(await page.getByLabel('Friday opens (1)').inputValue()).toBe('08:00');
    expect(await page.getByLabel('Friday closes (2)').inputValue()).toBe('18:00');
    await page.getByLabel('Saturday opens (1)').fill('14:00');
    await page.getByLabel('Saturday closes (1)').fill('09:00');
    // At laptop width every time field is wide enough for "00:00 PM" and the picker's icon (it was cut to "02:0").
    expect(await page.evaluate(TIME_FIELDS_TOO_NARROW)).toEqual([]);
    await page.getByLabel('Phone').fill('+49 30 1234567');
    await page.getByRole('button', { name: 'Create code' }).click();
    // The interval that ends before it begins is named at its own field; everything typed is still there.
    await expect.poll(() => page.locator('.field-error', { hasText: 'Saturday closes (1) must be after opens.' }).count()).toBe(1);
    expect(await page.getByLabel('Saturday closes (1)').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Monday closes (2)').inputValue()).toBe('18:00');
    await checkPage(page, 'code-types-business-refused', watched);
    await page.getByLabel('Saturday opens (1)').fill('09:00');
    await page.getByLabel('Saturday closes (1)').fill('14:00');
    await page.getByRole('button', { name: 'Create code' }).click();
    const codeId = await codeIdOf(page);
    await checkPage(page, 'code-types-business-code', watched);
    const shortUrl = (await page.locator('#short-url').textContent())!.trim();

    const phone = await phonePage();
    await phone.page.goto(shortUrl);
    expect(await phone.page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Bakery');
    expect(await phone.page.locator('dd').first().textContent()).toBe('08:00–12:00, 13:00–18:00');
    expect(await phone.page.locator('dd').nth(4).textContent()).toBe('08:00–12:00, 13:00–18:00');
    expect(await phone.page.getByRole('link', { name: 'Call +49 30 1234567' }).getAttribute('href')).toBe('tel:+49301234567');
    expect(await accessibilityViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, 'code-types-business-phone');
    await expectSignedWebhooks(codeId, 1);
    await expect.poll(() => totalScans(page)).toBe('1');

    await page.getByLabel('Monday closes (2)').fill('19:30');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.flash').first().textContent()).toBe('Changes saved.');
    await expect.poll(async () => (await fetch(shortUrl, { headers: { 'User-Agent': crawlerOn(IPHONE_SAFARI) } })).text()).toContain('13:00–19:30');
    await phone.page.goto(shortUrl);
    expect(await phone.page.locator('dd').first().textContent()).toBe('08:00–12:00, 13:00–19:30');
    await expectSignedWebhooks(codeId, 2);
    await expect.poll(() => totalScans(page)).toBe('2');
    await phone.close();
  }, BROWSER_TEST_TIMEOUT);

  it('EVENT and VCARD_PLUS: a new event starts in the browser’s zone and Enter completes a half-typed one; "Save contact" on the phone downloads the card in parts', async () => {
    const { watched, page } = await signedInPage();
    // The server guesses Tokyo (?tz=); the page corrects it to the browser's own zone.
    await page.goto(`${app.origin}/codes/new?type=EVENT&tz=Asia/Tokyo`);
    const zone = page.getByLabel('Time zone', { exact: true });
    expect(await zone.inputValue()).toBe(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone'));
    await page.getByLabel('Name', { exact: true }).fill('Launch');
    await page.getByLabel('Event name').fill('Launch party');
    await page.getByLabel('Starts').fill('2026-12-01T18:30');
    await zone.fill('america/');
    await zone.press('Enter');
    expect(await zone.evaluate((input) => (input as unknown as { validationMessage: string }).validationMessage)).toMatch(/^\d+ time zones match: type more/);
    expect(new URL(page.url()).pathname).toBe('/codes/new');
    await zone.fill('europe/berl');
    await zone.press('Enter');
    expect(await zone.inputValue()).toBe('Europe/Berlin');
    expect(new URL(page.url()).pathname).toBe('/codes/new');
    // Complete, Enter sends the form as usual.
    await zone.press('Enter');
    await codeIdOf(page);
    expect(await page.getByLabel('Time zone', { exact: true }).inputValue()).toBe('Europe/Berlin');

    await page.goto(`${app.origin}/codes/new?type=VCARD_PLUS`);
    await page.getByLabel('Name', { exact: true }).fill('Anna’s card');
    await page.getByLabel('Given name').fill('Anna');
    await page.getByLabel('Family name').fill("Müller-O'Brien");
    await page.getByLabel('Organisation').fill('Bäckerei Müller, Berlin');
    await page.getByLabel('Phone 1: Number').fill('+49 170 1234567');
    await page.getByLabel('Phone 1: Type').selectOption('mobile');
    await page.getByLabel('Phone 2: Number').fill('+49 30 1234567');
    await page.getByLabel('Phone 2: Type').selectOption('work');
    await page.getByLabel('Email 1: Address').fill('anna@baeckerei.example');
    await page.getByLabel('Street and number').fill('Hauptstraße 1');
    await page.getByLabel('Postcode').fill('10115');
    await page.getByLabel('City').fill('Berlin');
    await page.getByLabel('Country').fill('Deutschland');
    await page.getByRole('button', { name: 'Create code' }).click();
    await codeIdOf(page);
    const shortUrl = (await page.locator('#short-url').textContent())!.trim();

    const phone = await phonePage();
    await phone.page.goto(shortUrl);
    expect((await phone.page.locator('address').textContent())!.trim()).toBe('Hauptstraße 1\n10115 Berlin\nDeutschland');
    const [download] = await Promise.all([phone.page.waitForEvent('download'), phone.page.getByRole('link', { name: 'Save contact' }).click()]);
    const card = strictComponent(await readFile((await download.path())!, 'utf8'), 'vcard');
    expect(card.getFirstPropertyValue('n')).toEqual(["Müller-O'Brien", 'Anna', '', '', '']);
    expect(card.getFirstPropertyValue('org')).toBe('Bäckerei Müller, Berlin');
    expect(card.getFirstProperty('adr')!.getValues()).toEqual([['', '', 'Hauptstraße 1', 'Berlin', '', '10115', 'Deutschland']]);
    expect(card.getAllProperties('tel').map((tel) => [typesOf(tel), tel.getFirstValue()])).toEqual([[['cell'], '+49 170 1234567'], [['voice', 'work'], '+49 30 1234567']]);
    await phone.close();
  }, BROWSER_TEST_TIMEOUT);
});


import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { CODE_TYPE_NAMES, type CodeTypeName } from '../../src/codes/types/index.js';
import { BROWSER_TEST_TIMEOUT, checkPage, watchedContext, type WatchedContext } from '../support/browser.js';
import { readQrPng } from '../support/design-decode.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { mp3, mp4, pdf, png } from '../support/sample-files.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { useWebhookReceiver, verifyServiceSignature, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The thirteen types test/browser/dashboard-code-types.test.ts does not take the whole way (it does APP, IMAGES,
 * BUSINESS and SOCIAL_MEDIA), each in one signed-in Chromium page: New code, the type picked in the picker, its
 * form filled by its labels (files chosen with real bytes), created; the short URL scanned as an iPhone, the
 * page or redirect it gives checked, the scan counted on the code page with a signed webhook on loopback; one
 * field edited on the code page after "printing", and the next scan shows the change.
 *
 * Each type's form is checked as it opens from the picker (axe, no CSP violation, a screenshot): the thirteen here,
 * the other four where dashboard-code-types.test.ts picks them, so each form is loaded once with all its checks.
 */

/** Not counted (isbot says crawler), so it can poll for an edit to reach the redirect cache. */
const CRAWLER_ON_IPHONE = `${IPHONE_SAFARI} (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`;

/** A value typed into a field, an option chosen, a box ticked, or a file chosen. */
type Value = string | { select: string } | { check: true } | { file: { name: string; mimeType: string; buffer: Buffer } };

interface Journey {
  type: CodeTypeName;
  /** The type's name in the picker, the heading of its form and the code page's "Type". */
  label: string;
  /** Field labels (exact) and what goes into them, in order. */
  fill: Array<[label: string, value: Value]>;
  /** What the iPhone's scan shows: texts of the page (or file) served, or the redirect's Location. */
  sees: string[];
  /** Set for a type whose page links a file: the media type that file is served as. */
  servesFile?: string;
  edit: [label: string, value: string];
  seesAfterEdit: string[];
  /** What the edit took away. */
  gone?: string;
  /**
   * Check the code page, its edit form filled, with axe: set for the forms whose controls no other browser test
   * checks on a code page (a held file with "Remove", list rows, date and time, a select and a checkbox).
   */
  axe?: true;
}

const file = (name: string, mimeType: string, buffer: Buffer) => ({ file: { name, mimeType, buffer } });

/** The types test/browser/dashboard-code-types.test.ts picks and checks (pickType), by their names in the picker. */
const PICKED_IN_CODE_TYPES_TEST = ['Social media links', 'App download', 'Image gallery', 'Business page'];

const JOURNEYS: Journey[] = [
  {
    type: 'URL',
    label: 'Website (URL)',
    fill: [['Destination URL', 'https://example.com/spring']],
    sees: ['https://example.com/spring'],
    edit: ['Destination URL', 'https://example.com/summer'],
    seesAfterEdit: ['https://example.com/summer'],
  },
  {
    type: 'VCARD_PLUS',
    label: 'Contact page',
    fill: [
      ['Given name', 'Ada'],
      ['Family name', 'Lovelace'],
      ['Job title', 'Analyst'],
      ['Phone 1: Number', '+44 20 7946 0958'],
      ['Phone 1: Type', { select: 'work' }],
      ['Email 1: Address', 'ada@example.com'],
      ['Street and number', '12 St James’s Square'],
      ['Postcode', 'SW1Y 4JH'],
      ['City', 'London'],
      ['Photo', file('ada.png', 'image/png', png(16, 16, [30, 90, 160, 255]))],
    ],
    sees: ['<h1>Ada Lovelace</h1>', 'alt="Photo of Ada Lovelace"', 'href="tel:+442079460958"', 'Call +44 20 7946 0958 (work)', 'href="mailto:ada@example.com"', '12 St James’s Square\nSW1Y 4JH London'],
    servesFile: 'image/png',
    edit: ['Family name', 'King'],
    seesAfterEdit: ['<h1>Ada King</h1>'],
    gone: 'Lovelace',
    axe: true,
  },
  {
    type: 'CONTACT',
    label: 'Contact file (vCard)',
    fill: [
      ['Given name', 'Grace'],
      ['Family name', 'Hopper'],
      ['Phone 1: Number', '+1 555 0199'],
      ['Phone 1: Type', { select: 'mobile' }],
      ['Email 1: Address', 'grace@example.com'],
      ['Email 1: Type', { select: 'work' }],
      ['Street and number', '1 Navy Way'],
      ['Postcode', '22202'],
      ['City', 'Arlington'],
      ['State or region', 'VA'],
      ['Country', 'USA'],
      ['Photo', file('grace.png', 'image/png', png(16, 16, [160, 30, 90, 255]))],
    ],
    // The card as a phone files it: family name first in N, the number as mobile, the address in its parts.
    sees: ['BEGIN:VCARD', 'N:Hopper;Grace;;;', 'FN:Grace Hopper', 'TEL;TYPE=CELL:+1 555 0199', 'EMAIL;TYPE=INTERNET,WORK:grace@example.com', 'ADR:;;1 Navy Way;Arlington;VA;22202;USA', 'PHOTO;ENCODING=b;TYPE='],
    edit: ['Organisation', 'Navy Labs'],
    seesAfterEdit: ['FN:Grace Hopper', 'ORG:Navy Labs'],
  },
  {
    type: 'PDF',
    label: 'PDF document',
    fill: [
      ['Title', 'Menu'],
      ['PDF file', file('menu.pdf', 'application/pdf', pdf())],
    ],
    sees: ['<h1>Menu</h1>', 'Open the PDF'],
    servesFile: 'application/pdf',
    edit: ['Title', 'Winter menu'],
    seesAfterEdit: ['<h1>Winter menu</h1>'],
  },
  {
    type: 'VIDEO',
    label: 'Video',
    fill: [
      ['Title', 'Trailer'],
      ['Video file', file('trailer.mp4', 'video/mp4', mp4())],
    ],
    sees: ['<h1>Trailer</h1>', 'aria-label="Trailer"'],
    servesFile: 'video/mp4',
    edit: ['Title', 'Teaser'],
    seesAfterEdit: ['<h1>Teaser</h1>', 'aria-label="Teaser"'],
    gone: 'Trailer',
  },
  {
    type: 'MP3',
    label: 'Audio (MP3)',
    fill: [
      ['Title', 'Song'],
      ['Audio file', file('song.mp3', 'audio/mpeg', mp3())],
    ],
    sees: ['<h1>Song</h1>', 'aria-label="Song"', 'Download the audio file'],
    servesFile: 'audio/mpeg',
    edit: ['Title', 'New song'],
    seesAfterEdit: ['<h1>New song</h1>', 'aria-label="New song"'],
  },
  {
    type: 'FACEBOOK',
    label: 'Facebook page',
    fill: [['Facebook page URL', 'https://www.facebook.com/acmebakery']],
    sees: ['https://www.facebook.com/acmebakery'],
    edit: ['Facebook page URL', 'https://www.facebook.com/acmebakery2'],
    seesAfterEdit: ['https://www.facebook.com/acmebakery2'],
  },
  {
    type: 'COUPON',
    label: 'Coupon',
    fill: [
      ['Offer', '10% off all bread'],
      ['Coupon code', 'BREAD10'],
      ['Expires', '2099-12-31T23:59'],
      ['Time zone', 'Europe/Berlin'],
      ['Terms', 'One per person'],
    ],
    // In the issuer's zone, named: a reader elsewhere sees when it ends for the shop.
    sees: ['<h1>10% off all bread</h1>', '<strong class="cc" id="coupon-code">BREAD10</strong>', 'Valid until 31 December 2099 at 23:59 (Europe/Berlin).', 'One per person'],
    edit: ['Coupon code', 'BREAD20'],
    seesAfterEdit: ['<strong class="cc" id="coupon-code">BREAD20</strong>'],
    gone: 'BREAD10',
  },
  {
    type: 'EVENT',
    label: 'Event',
    fill: [
      ['Event name', 'Launch party'],
      ['Starts', '2026-12-01T18:30'],
      ['Time zone', 'Europe/Berlin'],
      ['Location', 'Hall 1'],
    ],
    sees: ['<h1>Launch party</h1>', '18:30 (Europe/Berlin)', 'Hall 1', 'Add to calendar'],
    edit: ['Event name', 'Launch night'],
    seesAfterEdit: ['<h1>Launch night</h1>'],
    gone: 'Launch party',
    axe: true,
  },
  {
    type: 'TEXT',
    label: 'Plain text',
    fill: [['Text', 'Hello,\nworld']],
    sees: ['Hello,\nworld'],
    edit: ['Text', 'Goodbye'],
    seesAfterEdit: ['Goodbye'],
    gone: 'world',
  },
  {
    type: 'EMAIL',
    label: 'Email',
    fill: [
      ['To (email address)', 'info@example.com'],
      ['Subject', 'Hi there'],
    ],
    sees: ['<h1>Email info@example.com</h1>', 'href="mailto:info@example.com?subject=Hi%20there"'],
    edit: ['To (email address)', 'shop@example.com'],
    seesAfterEdit: ['href="mailto:shop@example.com?subject=Hi%20there"'],
    gone: 'info@example.com',
  },
  {
    type: 'SMS',
    label: 'Text message (SMS)',
    fill: [
      ['Phone number', '+1 555 0100'],
      ['Message', 'STOP'],
    ],
    sees: ['<h1>Text +1 555 0100</h1>', 'href="sms:+15550100?body=STOP"'],
    edit: ['Message', 'START'],
    seesAfterEdit: ['href="sms:+15550100?body=START"'],
    gone: 'STOP',
  },
  {
    type: 'WIFI',
    label: 'Wi-Fi network',
    fill: [
      ['Network name (SSID)', 'Cafe'],
      ['Security', { select: 'WPA' }],
      ['Password', 'secret123'],
      ['Hidden network', { check: true }],
    ],
    sees: ['<code>Cafe</code>', 'WIFI:T:WPA;S:Cafe;P:secret123;H:true;;'],
    edit: ['Password', 'secret456'],
    seesAfterEdit: ['WIFI:T:WPA;S:Cafe;P:secret456;H:true;;'],
    gone: 'secret123',
    axe: true,
  },
];

let app: TestApp;
let receiver: WebhookReceiver;
let person: TestPerson;
let secret: string;
let watched: WatchedContext;
let page: Page;

useWebhookReceiver((started) => {
  receiver = started;
});
useBrowserSuite(
  async ({ database, app: started, browser }) => {
    app = started;
    person = await createPerson(database.db, { accountName: 'Acme Bakery' });
    // The receiver listens on loopback: the test app allows private webhook URLs (ALLOW_PRIVATE_WEBHOOK_URLS), and so
    // does this setting (allowPrivate), as in development.
    secret = (await setWebhook(database.db, app.box, { accountId: person.accountId, url: receiver.url, allowPrivate: true })).secret!;
    // One page for every type, to keep the file quick; signed in by the first test (signIn polls, which only a
    // test may do).
    watched = await watchedContext(browser);
    page = await watched.newPage();
  },
  { tuning: { webhooks: { worker: { pollIntervalMs: 100 } } } },
);

let signedIn = false;
async function ensureSignedIn(): Promise<void> {
  if (!signedIn) await signIn(page, app, person);
  signedIn = true;
}

async function setField(label: string, value: Value): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  if (typeof value === 'string') await field.fill(value);
  else if ('select' in value) await field.selectOption(value.select);
  else if ('check' in value) await field.check();
  else await field.setInputFiles(value.file);
}

/** What a phone sees on scanning: a redirect's Location, or the page (or file) served. */
async function scanSees(shortUrl: string, userAgent = IPHONE_SAFARI): Promise<string> {
  const response = await fetch(shortUrl, { redirect: 'manual', headers: { 'User-Agent': userAgent } });
  if (response.status === 302) return response.headers.get('location') ?? '';
  expect(response.status, `scan of ${shortUrl}`).toBe(200);
  return response.text();
}

function webhooksFor(codeId: string) {
  return receiver.received.filter((request) => request.rawBody.toString().includes(codeId));
}

async function expectSignedWebhooks(codeId: string, count: number): Promise<void> {
  await expect.poll(() => webhooksFor(codeId).length, { timeout: 15_000 }).toBe(count);
  for (const call of webhooksFor(codeId)) {
    expect(verifyServiceSignature(call.rawBody, call.headers['x-service-signature'], secret)).toBe(true);
    expect(JSON.parse(call.rawBody.toString())).toMatchObject({ event: 'scan.created', qrCodeId: codeId, device: 'mobile', os: 'iOS' });
  }
}

/** The code page's total of scans by people, as shown after a reload. */
async function scansShown(): Promise<string | null> {
  await page.reload();
  return page.locator('.total-scans').textContent();
}

/** The code page's path once there; on a refused form, its messages instead. */
async function landedOn(): Promise<string> {
  const path = new URL(page.url()).pathname;
  if (path !== '/codes') return path;
  const problems = await page.locator('.flash-error, .field-error').allTextContents();
  return problems.length > 0 ? `refused: ${problems.join(' | ')}` : path;
}

function expectSees(text: string, sees: string[], gone?: string): void {
  for (const expected of sees) expect(text, expected).toContain(expected);
  if (gone) expect(text).not.toContain(gone);
}

describe('every other type, the whole way in one browser', () => {
  it('the type picker offers every type, each checked as it opens here or in dashboard-code-types.test.ts', async () => {
    await ensureSignedIn();
    await page.goto(`${app.origin}/codes/new`);
    const labels = await page.getByRole('navigation', { name: 'Type' }).getByRole('link').allTextContents();
    expect(labels).toHaveLength(CODE_TYPE_NAMES.length);
    expect([...labels].sort()).toEqual([...JOURNEYS.map((journey) => journey.label), ...PICKED_IN_CODE_TYPES_TEST].sort());
  });

  it.each(JOURNEYS.map((journey) => [journey.type, journey] as const))(
    '%s: created through its form, scanned by an iPhone, counted with a signed webhook, edited after printing, and the next scan shows the change',
    async (_type, journey) => {
      await ensureSignedIn();
      await page.goto(`${app.origin}/codes/new`);
      await page.getByRole('navigation', { name: 'Type' }).getByRole('link', { name: journey.label, exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { level: 2, name: journey.label, exact: true }).count()).toBe(1);
      // The form as it opens: marked in the picker, and checked (axe, CSP, a screenshot people look at).
      expect(await page.locator('.type-picker a[aria-current="page"]').textContent()).toBe(journey.label);
      await checkPage(page, `code-types-form-${journey.label.toLowerCase().replace(/[^a-z]+/g, '-').replace(/-$/, '')}`, watched);
      await page.getByLabel('Name', { exact: true }).fill(`Poster: ${journey.label}`);
      for (const [label, value] of journey.fill) await setField(label, value);
      await page.getByRole('button', { name: 'Create code' }).click();

      // A refused form stays at /codes with its messages: say them, rather than only that the URL is wrong.
      await expect.poll(() => landedOn()).toMatch(/^\/codes\/qr_[0-9A-Z]+$/);
      const codeId = new URL(page.url()).pathname.split('/').pop()!;
      expect(await page.locator('.flash').first().textContent()).toBe('Code created. Download its QR code, or copy the short URL.');
      expect(await page.locator('.code-type').textContent()).toBe(journey.label);
      expect(await page.locator('.total-scans').textContent()).toBe('0');
      const shortUrl = (await page.locator('#short-url').textContent())!.trim();

      const first = await scanSees(shortUrl);
      expectSees(first, journey.sees);
      if (journey.servesFile) {
        const href = /(?:src|href)="(\/files\/[^"]+)"/.exec(first)?.[1];
        expect(href, 'a file linked from the page').toBeDefined();
        const served = await fetch(`${app.origin}${href}`, { headers: { 'User-Agent': IPHONE_SAFARI } });
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toContain(journey.servesFile);
      }
      await expectSignedWebhooks(codeId, 1);
      await expect.poll(() => scansShown()).toBe('1');

      // After "printing": one field changed on the code page.
      await setField(...journey.edit);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => page.locator('.flash').first().textContent()).toBe('Changes saved.');
      expect(await page.getByLabel(journey.edit[0], { exact: true }).inputValue()).toBe(journey.edit[1]);
      if (journey.axe) await checkPage(page, `every-type-${journey.type.toLowerCase()}-code`, watched);
      // The change reaches the redirect cache by NOTIFY a moment after the commit: wait as a crawler (not
      // counted), then scan as the phone.
      await expect.poll(() => scanSees(shortUrl, CRAWLER_ON_IPHONE)).toContain(journey.seesAfterEdit[0]);
      expectSees(await scanSees(shortUrl), journey.seesAfterEdit, journey.gone);
      await expectSignedWebhooks(codeId, 2);
      await expect.poll(() => scansShown()).toBe('2');

      expect(await watched.cspViolations(page), 'CSP violations in the dashboard').toEqual([]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it('WIFI "join directly": the downloaded image holds the network itself, and the code page says it is static and its scans uncounted', async () => {
    await ensureSignedIn();
    await page.goto(`${app.origin}/codes/new?type=WIFI`);
    await page.getByLabel('Name', { exact: true }).fill('Guest Wi-Fi, direct');
    await setField('Network name (SSID)', 'Café; "5G"');
    await setField('Security', { select: 'WPA' });
    await setField('Password', 'pass:word,1');
    await page.getByLabel(/Join directly/).check();
    await page.getByRole('button', { name: 'Create code' }).click();
    await expect.poll(() => landedOn()).toMatch(/^\/codes\/qr_[0-9A-Z]+$/);
    const codeId = new URL(page.url()).pathname.split('/').pop()!;
    expect(await page.locator('.static-wifi').textContent()).toContain('The image is static');
    expect(await page.locator('.code-facts').textContent()).toContain('Scans of the printed Wi-Fi code are not counted');

    const wifi = 'WIFI:T:WPA;S:Café\\; \\"5G\\";P:pass\\:word\\,1;;';
    const png = await page.request.get(`${app.origin}/codes/${codeId}/download?format=png&size=512`);
    expect(png.status()).toBe(200);
    expect(readQrPng(await png.body())).toBe(wifi);

    // Back to the page: the image holds the short URL again.
    await page.getByLabel(/A page with the network name/).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.flash').first().textContent()).toBe('Changes saved.');
    expect(await page.locator('.static-wifi').count()).toBe(0);
    const again = await page.request.get(`${app.origin}/codes/${codeId}/download?format=png&size=512`);
    expect(readQrPng(await again.body())).toMatch(/^HTTP:\/\/.+\/R\/[0-9A-Z]+$/i);
  }, BROWSER_TEST_TIMEOUT);

  afterAll(async () => {
    await watched?.context.close();
  });
});

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';
import { loadConfig } from '../../src/config.js';
import { createDesignTemplate } from '../../src/designs/index.js';
import { checkImport } from '../../src/imports/check-import.js';
import { createPasswordReset } from '../../src/people/password-resets.js';
import { DEFAULT_DESIGN } from '../../src/qr/design/design.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, screenshot } from '../support/browser.js';
import { BROWSER_SUITE_TIMEOUT, useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { signIn } from '../support/dashboard.js';
import { createPerson, createTestApiKey, createTestCode, createTestInvitation, createTestTypedCode, type TestPerson } from '../support/factories.js';
import { IPHONE_SAFARI, scan } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';

/*
 * Issue 26, on a phone and with a keyboard: every dashboard page and state (and the docs portal) at 390×844 with an
 * iPhone's user agent and at 1280×800, with no sideways scroll, no serious or critical axe violation, a skip link as
 * the first tab stop, and, after a refused form, focus on an error summary that links to each field. One browser,
 * one app, one account full of data; each page is loaded once per size.
 */

// The functions given to page.evaluate run in the page (the project compiles without the DOM library).
interface PageElement {
  tagName: string;
  id: string;
  className: string;
  getBoundingClientRect(): { right: number };
  checkVisibility(): boolean;
  contains(other: PageElement): boolean;
}
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
  activeElement: { tagName: string; id: string; className: string; textContent: string | null; getAttribute(name: string): string | null } | null;
};
declare const window: { scrollY: number };

let database: TestDatabase;
let app: TestApp;
let browser: Browser;
let owner: TestPerson;
/** Paths of pages that need a signed-in owner, filled in by the setup. */
const signedIn: string[] = [];
/** Paths of pages that a signed-out visitor sees. */
const signedOut: string[] = ['/login', '/password-reset', '/signup'];

beforeAll(async () => {
  // What `npm start` does first (its prestart: about 2 s of CPU when docs-dist/ is older than the contract, nothing
  // after .ci/run's build); the build renames the page into place, so other files building it too is fine.
  await promisify(execFile)(process.execPath, ['scripts/build-if-stale.mjs', 'docs'], { cwd: PROJECT_ROOT });
}, BROWSER_SUITE_TIMEOUT);
useBrowserSuite(
  async (suite) => {
    ({ database, app, browser } = suite);
    const db = database.db;
    owner = await createPerson(db, { accountName: 'Bäckerei Müller-O’Brien & Söhne, Filiale Hauptbahnhof' });
    const { accountId } = owner;
    const member = await createPerson(db, { accountId, role: 'member', email: 'anna.mueller-obrien@baeckerei-example.com' });
    const invitation = await createTestInvitation(db, { accountId, siteUrl: app.config.siteUrl, invitedByUserId: owner.userId });
    const key = await createTestApiKey(db, app, accountId, { name: 'Production server', createdByUserId: owner.userId });

    // Codes: a URL code re-pointed twice (destination history) and scanned, and page types.
    const poster = await createTestCode(key, { name: 'Spring poster in the shop window', url: 'https://example.com/spring/2026/campaign?utm_source=poster&utm_medium=print' });
    await key.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: poster.id } }, body: { url: 'https://example.com/summer/2026/a-rather-long-path/for-the-campaign' } });
    const card = await createTestTypedCode(db, { accountId, userId: owner.userId }, { type: 'VCARD_PLUS', name: 'Business card', siteUrl: app.config.siteUrl });
    await createTestTypedCode(db, { accountId, userId: owner.userId }, { type: 'WIFI', name: 'Guest Wi-Fi', siteUrl: app.config.siteUrl });
    await createTestTypedCode(db, { accountId, userId: owner.userId }, { type: 'BUSINESS', name: 'Opening hours', siteUrl: app.config.siteUrl });
    for (let i = 0; i < 3; i++) await scan(app, poster.slug);

    const template = await createDesignTemplate(db, { accountId, name: 'Brand colours', design: DEFAULT_DESIGN });
    const csv = 'type;name;url\r\nURL;Flyer;https://example.com/flyer\r\nURL;Broken;not a url\r\n';
    const checked = await checkImport(db, { accountId, userId: owner.userId, fileName: 'flyers.csv', bytes: Buffer.from(csv) });
    if (!checked.ok) throw new Error(checked.message);
    await setWebhook(db, app.box, { accountId, url: 'http://127.0.0.1:9/hooks/qroute', allowPrivate: true });
    // The scan's delivery is written with the scan, in a batch a moment later: the test waits for it (deliveryPath).
    await scan(app, poster.slug);
    // Routing (issue 28): long names and URLs, a split and a schedule, so the routing pages and the analytics' tables
    // per rule and variant have rows at a phone's width.
    const routed = await key.client.raw.PATCH('/qrcodes/{id}', {
      params: { path: { id: poster.id } },
      body: {
        routing: {
          timeZone: 'Europe/Berlin',
          rules: [
            { name: 'iPhones and iPads in Germany, Austria and Switzerland at the weekend', when: { os: ['iOS'], devices: ['mobile', 'tablet'], countries: ['DE', 'AT', 'CH'], weekdays: ['sat', 'sun'], hours: { from: '18:00', until: '02:00' } }, destinationUrl: 'https://example.com/de/weekend/a-rather-long-path/for-the-campaign?utm_source=poster' },
            { when: { languages: ['fr'], from: '2026-12-01T00:00:00+01:00' }, destinationUrl: 'https://example.com/fr' },
          ],
          split: [{ destinationUrl: 'https://example.com/summer/2026/a-rather-long-path/for-the-campaign', weight: 70 }, { destinationUrl: 'https://example.com/b', weight: 30 }],
        },
        expiresAt: '2030-01-01T00:00:00Z',
        scanLimit: 100000,
        expiredUrl: 'https://example.com/ended',
      },
    });
    const ruleId = routed.data!.data.routing!.rules[0]!.id;

    signedIn.push(
      '/codes',
      '/codes/new',
      '/codes/new?type=BUSINESS',
      `/codes/${poster.id}`,
      `/codes/${card.id}`,
      `/codes/${poster.id}/analytics`,
      `/codes/${poster.id}/design`,
      `/codes/${poster.id}/delete`,
      `/codes/${poster.id}/routing?try=1&os=iOS&device=mobile&country=DE&at=2026-12-05T19:00`,
      `/codes/${poster.id}/routing/rules/${ruleId}`,
      `/codes/${poster.id}/routing/rules/new`,
      '/imports',
      `/imports/${checked.importId}`,
      '/designs',
      `/designs/${template.id}`,
      `/designs/${template.id}/delete`,
      '/analytics',
      '/api-and-webhooks',
      '/api-and-webhooks/deliveries',
      `/api-and-webhooks/keys/${key.keyId}/revoke`,
      '/api-and-webhooks/webhook/remove',
      '/people',
      `/people/invitations/${invitation.id}/revoke`,
      `/people/${member.userId}/remove`,
      '/account',
      '/account/branding',
      '/codes/qr_0000000000000000000000000', // the dashboard's "Not found" page
    );
    const reset = await createPasswordReset(db, { email: member.email, siteUrl: app.config.siteUrl });
    signedOut.push(new URL(invitation.url).pathname, new URL(reset!.url).pathname);
  },
  // Deliveries stay pending (no worker), so the log and a delivery's page have rows without waiting on a receiver;
  // sign-up is open, so its page is there to check.
  { overrides: { webhookWorker: false, dashboard: { ...loadConfig({}).dashboard, signup: 'open' } } },
);

const PHONE = { viewport: { width: 390, height: 844 }, userAgent: IPHONE_SAFARI, isMobile: true, hasTouch: true } as const;
const LAPTOP = { viewport: { width: 1280, height: 800 } } as const;
/** Pages whose screenshots people look at (test-results/layout-<size>-<page>.png); the others are only checked. */
const SCREENSHOTS = /^\/(codes|codes\/new\?type=BUSINESS|codes\/qr_\w+\/design|api-and-webhooks|analytics)$/;

/**
 * axe's serious and critical violations (accessibilityViolations) and also landmark-unique, moderate by axe's count:
 * two landmarks of one name (a table's box named like its section), which a screen reader's list of landmarks cannot
 * tell apart (issue 26 found it on API & webhooks). One axe run for both.
 */
function axeViolations(page: Page): Promise<string[]> {
  return accessibilityViolations(page, { alsoRules: ['landmark-unique'] });
}

/** What is wrong with the page as loaded now: sideways scroll, axe's serious and critical violations, no skip link first. */
async function problemsOf(page: Page, name: string, options: { skipLink: boolean } = { skipLink: true }): Promise<string[]> {
  const problems: string[] = [];
  const width = page.viewportSize()!.width;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scrollWidth > width) problems.push(`${name}: ${scrollWidth} px wide in a ${width} px viewport, by ${(await overflowing(page)).join(', ')}`);
  for (const violation of await axeViolations(page)) problems.push(`${name}: ${violation}`);
  if (!options.skipLink) return problems;
  // From the top of the page (the address bar), the first Tab reaches the skip link.
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => `${document.activeElement?.textContent?.trim()} → ${document.activeElement?.getAttribute('href')}`);
  if (first !== 'Skip to content → #main') problems.push(`${name}: the first tab stop is ${first}`);
  return problems;
}

/** The innermost elements that reach past the viewport's right edge (what makes the page scroll sideways). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')].filter((element) => element.checkVisibility() && element.getBoundingClientRect().right > width + 1);
    return wide
      .filter((element) => !wide.some((other) => other !== element && element.contains(other)))
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px)`);
  });
}

/**
 * Whether the design editor's preview image is wholly on screen after the last field (the frame's text colour, at
 * the bottom of the form) gets focus, as it does while someone edits there.
 */
async function previewInViewWhileEditing(page: Page): Promise<boolean> {
  await page.getByLabel('Frame text colour').focus();
  const box = await page.getByRole('img', { name: 'Preview of the QR code in this design' }).boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height && box.height > 50;
}

/** The element that has focus, as "tag.class#id". */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element ? `${element.tagName.toLowerCase()}.${element.className}#${element.id}` : 'nothing';
  });
}

/** Every page at one size: each checked (problemsOf), the main ones photographed. */
async function visitAll(context: BrowserContext, size: string, paths: string[]): Promise<string[]> {
  const problems: string[] = [];
  const page = await context.newPage();
  for (const path of paths) {
    // DOMContentLoaded comes after the stylesheets (app.js is deferred, and deferred scripts wait for them), which is
    // all axe and the widths need; not waiting for images (a code's preview is rendered on request) saves seconds.
    await page.goto(`${app.origin}${path}`, { waitUntil: 'domcontentloaded' });
    problems.push(...(await problemsOf(page, `${size} ${path}`)));
    if (SCREENSHOTS.test(path)) await screenshot(page, `layout-${size}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`);
  }
  await page.close();
  return problems;
}

/** The page of the account's one webhook delivery, once the scan that makes it is written. */
async function deliveryPath(): Promise<string> {
  const find = () => database.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', owner.accountId).executeTakeFirst();
  await expect.poll(find).toBeDefined();
  return `/api-and-webhooks/deliveries/${(await find())!.id}`;
}

/** Signed out and signed in, every page at one size. */
async function checkEverything(options: typeof PHONE | typeof LAPTOP, size: string, signedInPaths: string[]): Promise<string[]> {
  const context = await browser.newContext(options);
  try {
    const problems = await visitAll(context, size, signedOut);
    const page = await context.newPage();
    await signIn(page, app, owner);
    await page.close();
    problems.push(...(await visitAll(context, size, signedInPaths)));
    // The docs portal (Redoc's page, not the dashboard's layout: no skip link asked of it), once Redoc has drawn it.
    const docs = await context.newPage();
    await docs.goto(`${app.origin}/docs`);
    await expect.poll(() => docs.getByRole('heading', { name: 'Quick start' }).isVisible(), { timeout: 20_000 }).toBe(true);
    problems.push(...(await problemsOf(docs, `${size} /docs`, { skipLink: false })));
    await screenshot(docs, `layout-${size}-docs`);
    return problems;
  } finally {
    await context.close();
  }
}

describe('every dashboard page on a phone and a laptop', () => {
  // One test per size, each with the browser tests' budget: both sizes in one test (side by side) took 25 s alone
  // and over 90 s when it started beside the suite's other heaviest files on the shared 2 cores.
  it.each([
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ] as const)('on a %s: scrolls no page sideways, has no serious or critical axe violation and offers a skip link as the first tab stop', async (size, options) => {
    expect(await checkEverything(options, size, [...signedIn, await deliveryPath()])).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('on a phone: the navigation is one "Menu" button that opens with the keyboard; a refused form puts focus on its error summary; the design preview stays in view', async () => {
    const context = await browser.newContext(PHONE);
    try {
      const page = await context.newPage();
      await signIn(page, app, owner);
      await page.goto(`${app.origin}/codes/new`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link', { name: 'People' }).isVisible()).toBe(false);
      const bar = await nav.boundingBox();
      expect(bar!.height).toBeLessThan(80);
      await nav.getByText('Menu').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => nav.getByRole('link', { name: 'People' }).isVisible()).toBe(true);
      await screenshot(page, 'layout-phone-menu-open');
      // The open menu is checked by axe too (its links over the page).
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Enter');
      await expect.poll(() => nav.getByRole('link', { name: 'People' }).isVisible()).toBe(false);

      // A type from the picker lands on its form.
      await page.getByRole('navigation', { name: 'Type' }).getByRole('link', { name: 'Business page' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Business page' }).isVisible()).toBe(true);
      // The fragment's scroll comes with a rendering pass after the heading is parsed.
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

      // Values the browser accepts and the server refuses: focus goes to the summary, whose links lead to the fields.
      await page.goto(`${app.origin}/codes/new`);
      await page.getByLabel('Name').fill('   ');
      await page.getByLabel('Destination URL').fill('ftp://example.com/file');
      await page.getByRole('button', { name: 'Create code' }).click();
      await expect.poll(() => focused(page)).toBe('div.error-summary#');
      const links = page.locator('.error-summary a');
      expect(await links.count()).toBe(2);
      await links.nth(1).click();
      await expect.poll(() => focused(page)).toBe('input.#new-code-url');
      await screenshot(page, 'layout-phone-refused-code');

      // The design editor keeps its live preview in view while the fields below it are edited.
      await page.goto(`${app.origin}${signedIn.find((path) => path.endsWith('/design'))}`);
      expect(await previewInViewWhileEditing(page)).toBe(true);
      await screenshot(page, 'layout-phone-design-editing', { fullPage: false });
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_TIMEOUT);

  it('on a laptop: a refused password change puts focus on its error summary; the design preview stays beside the fields', async () => {
    const context = await browser.newContext(LAPTOP);
    try {
      const page = await context.newPage();
      await signIn(page, app, owner);
      await page.goto(`${app.origin}/account`);
      await page.getByLabel('Current password').fill('not the password');
      await page.getByLabel('New password', { exact: true }).fill('a new long password');
      await page.getByLabel('Confirm new password').fill('a new long password');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => focused(page)).toBe('div.error-summary#');
      expect(await page.locator('.error-summary a').first().getAttribute('href')).toBe('#current-password');

      await page.goto(`${app.origin}${signedIn.find((path) => path.endsWith('/design'))}`);
      expect(await previewInViewWhileEditing(page)).toBe(true);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_TIMEOUT);
});

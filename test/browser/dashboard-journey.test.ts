import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { createInvitation } from '../../src/people/invitations.js';
import { createClient } from '../../sdk/src/index.js';
import { BROWSER_TEST_TIMEOUT, checkPage as checkPageOf, navigatedTo, watchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { useWebhookReceiver, verifyServiceSignature, type WebhookReceiver } from '../support/webhook-receiver.js';

let database: TestDatabase;
let app: TestApp;
let browser: Browser;
let receiver: WebhookReceiver;

useWebhookReceiver((started) => {
  receiver = started;
});
useBrowserSuite(
  (suite) => {
    ({ database, app, browser } = suite);
  },
  { tuning: { webhooks: { worker: { pollIntervalMs: 100 } } } },
);

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
const path = (page: Page) => new URL(page.url()).pathname;

/**
 * The whole of issue 11's journey in one browser session, each step through the page a person uses: an operator's
 * invitation → a password → signed in → an API key (shown once, works, revoked, refused) → a webhook, its test
 * event, the delivery log, a redelivery → a code, scanned by a phone, seen in analytics → paused → deleted.
 */
describe('the dashboard from invitation to deleted code', () => {
  it('walks the whole journey; every page is accessible, self-contained and within the CSP', async () => {
    const account = await createAccount(database.db, { name: 'Journey Bakery', plan: 'business' });
    const invitation = await createInvitation(database.db, { accountId: account.id, email: 'owner@journey.example', role: 'owner', siteUrl: app.origin });
    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    const checkPage = (name: string) => checkPageOf(page, `dashboard-journey-${name}`);

    // Invitation → password → signed in.
    await page.goto(invitation.url);
    await page.getByLabel('Password', { exact: true }).fill('a long journey password');
    await page.getByLabel('Confirm password', { exact: true }).fill('a long journey password');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect.poll(() => path(page), { timeout: 20_000 }).toBe('/codes');

    // A key: shown once, works against the API, revoked, refused.
    await page.getByRole('link', { name: 'API & webhooks' }).click();
    await expect.poll(() => heading(page)).toBe('API & webhooks');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await expect.poll(() => page.getByLabel('New API key', { exact: true }).inputValue()).toMatch(/^qrk_/);
    const apiKey = await page.getByLabel('New API key', { exact: true }).inputValue();
    const api = createClient({ baseUrl: app.apiUrl, apiKey });
    const madeByApi = await api.raw.POST('/qrcodes', { body: { name: 'Made by the API', url: 'https://example.com/api' } });
    expect(madeByApi.response.status).toBe(201);
    await page.goto(`${app.origin}/api-and-webhooks`);
    expect(await page.content()).not.toContain(apiKey);
    await page.getByRole('button', { name: /^Revoke key qrk_/ }).click();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(async () => (await api.raw.GET('/qrcodes', {})).response.status).toBe(401);

    // The webhook: saved, a test event arrives signed, the log shows it.
    await page.goto(`${app.origin}/api-and-webhooks`);
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await expect.poll(() => page.getByLabel('Signing secret', { exact: true }).inputValue()).toMatch(/^whsec_/);
    const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [testCall] = await receiver.waitFor(1);
    expect(verifyServiceSignature(testCall!.rawBody, testCall!.headers['x-service-signature'], secret)).toBe(true);
    await checkPage('api-and-webhooks');

    // A code, made in the dashboard and scanned by a phone.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Codes' }).click();
    await navigatedTo(page, (url) => url.pathname === '/codes');
    expect(await page.getByRole('row', { name: /Made by the API/ }).count()).toBe(1);
    await page.getByRole('link', { name: 'New code' }).click();
    await page.getByLabel('Name').fill('Window poster');
    await page.getByLabel('Destination URL').fill('https://example.com/window');
    await page.getByRole('button', { name: 'Create code' }).click();
    await expect.poll(() => heading(page)).toBe('Window poster');
    const codePage = page.url();
    const shortUrl = (await page.locator('#short-url').textContent())!.trim();
    const phone = await fetch(shortUrl, { redirect: 'manual', headers: { 'User-Agent': IPHONE_SAFARI } });
    expect(phone.status).toBe(302);
    expect(phone.headers.get('location')).toBe('https://example.com/window');

    // The scan in analytics (the code page's panel, loaded by htmx), and its webhook in the delivery log.
    await expect
      .poll(async () => {
        await page.goto(codePage);
        return page.locator('#code-analytics').textContent();
      }, { timeout: 20_000 })
      .toMatch(/Human scans\s*1/);
    await checkPage('code');
    const [, scanCall] = await receiver.waitFor(2);
    expect(JSON.parse(scanCall!.rawBody.toString()).event).toBe('scan.created');

    // Redeliver it from its page in the log.
    await page.goto(`${app.origin}/api-and-webhooks`);
    const scanRow = page.locator('#deliveries tbody tr').filter({ hasText: 'scan.created' });
    await expect
      .poll(async () => {
        await page.reload();
        return (await scanRow.count()) === 1 ? scanRow.textContent() : '';
      })
      .toContain('Succeeded');
    await scanRow.getByRole('link').click();
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await receiver.waitFor(3);
    expect(receiver.received[2]!.headers['webhook-id']).toBe(scanCall!.headers['webhook-id']);

    // Pause: the phone gets the paused page. Delete: gone from the list, the short URL too.
    await page.goto(codePage);
    await page.getByRole('button', { name: 'Pause' }).click();
    // The code page again, said paused: a click before it arrives could be lost to that navigation.
    await navigatedTo(page, (url) => url.searchParams.get('done') === 'paused');
    await expect.poll(async () => (await fetch(shortUrl, { redirect: 'manual' })).status).toBe(404);
    await page.getByRole('link', { name: 'Delete this code…' }).click();
    await expect.poll(() => heading(page)).toBe('Delete “Window poster”?');
    await page.getByRole('button', { name: 'Delete code' }).click();
    await navigatedTo(page, (url) => url.pathname === '/codes');
    expect(await page.getByRole('row', { name: /Window poster/ }).count()).toBe(0);
    expect((await fetch(shortUrl, { redirect: 'manual' })).status).toBe(404);
    await checkPage('codes');

    expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT * 2);
});

import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createClient, QrouteError } from '../../sdk/src/index.js';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, checkPage, screenshot, watchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import { scan } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { useWebhookReceiver, verifyServiceSignature, type WebhookReceiver } from '../support/webhook-receiver.js';

let database: TestDatabase;
let app: TestApp;
let browser: Browser;
let receiver: WebhookReceiver;
let owner: TestPerson;

useWebhookReceiver((started) => {
  receiver = started;
});
useBrowserSuite(
  async (suite) => {
    ({ database, app, browser } = suite);
    owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
  },
  // The worker delivers scans; a short poll so the log fills in well within the test's waits.
  { tuning: { webhooks: { worker: { pollIntervalMs: 100 } } } },
);

const text = (page: Page, selector: string) => page.locator(selector).first().textContent().then((value) => value ?? '');

describe('API & webhooks in a browser', () => {
  it('creates a key that is shown once and works, revokes it; sets a webhook, tests it, sees a scan delivered, redelivers, rotates and removes', async () => {
    const watched = await watchedContext(browser);
    await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    const page = await watched.newPage();
    await signIn(page, app, owner);
    await page.getByRole('link', { name: 'API & webhooks' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API & webhooks');
    expect(await text(page, '#guide')).toContain(`${app.origin}/api/v1`);

    // A key, shown once, with a warning and a working copy button.
    await page.getByLabel(/^Name/).fill('Production server');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await expect.poll(() => page.getByLabel('New API key', { exact: true }).inputValue()).toMatch(/^qrk_\w{38}$/);
    const apiKey = await page.getByLabel('New API key', { exact: true }).inputValue();
    expect(await text(page, '.secret-once')).toContain('cannot be shown again');
    await page.locator('.secret-once').getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('.secret-once').getByRole('button').first().textContent()).toBe('Copied');
    await checkPage(page, 'dashboard-api-webhooks-new-key');

    const client = createClient({ baseUrl: app.apiUrl, apiKey });
    const code = await client.createQrCode({ name: 'Poster', url: 'https://example.com/spring' });

    // Loaded again, the page knows the key only by its prefix and last four, and that it was just used.
    await page.goto(`${app.origin}/api-and-webhooks`);
    const keysText = await text(page, '#api-keys');
    expect(await page.content()).not.toContain(apiKey);
    expect(keysText).toContain(`${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`);
    expect(keysText).toContain(`by ${owner.email}`);
    expect(keysText).not.toContain('Never');
    expect(await text(page, '#guide')).toContain(`${apiKey.slice(0, 8)}…`);

    // Revoke, through the confirmation that names the key; the API refuses it at once.
    await page.getByRole('button', { name: /^Revoke key qrk_/ }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Production server');
    await checkPage(page, 'dashboard-api-webhooks-revoke');
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => text(page, '.flash-ok')).toContain('The key is revoked');
    expect(await text(page, '#api-keys')).toContain('Revoked');
    const refused = await client.listQrCodes({}).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(QrouteError);
    expect((refused as QrouteError).status).toBe(401);
    expect((refused as QrouteError).code).toBe('invalid_api_key');

    // The webhook: save, reveal the secret, send a test event and see its outcome.
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => text(page, '.flash-ok')).toContain('Webhook saved');
    expect(await text(page, '#webhook-state')).toContain('Enabled');
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await expect.poll(() => page.getByLabel('Signing secret', { exact: true }).inputValue()).toMatch(/^whsec_/);
    const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => text(page, '#test-outcome')).toMatch(/Delivered: your receiver answered HTTP 204 in \d+ ms/);
    // The log under it is refreshed by the same answer.
    expect(await page.locator('#deliveries tbody tr').filter({ hasText: 'webhook.test' }).textContent()).toContain('Succeeded');
    const [testCall] = await receiver.waitFor(1);
    expect(JSON.parse(testCall!.rawBody.toString()).event).toBe('webhook.test');
    expect(verifyServiceSignature(testCall!.rawBody, testCall!.headers['x-service-signature'], secret)).toBe(true);
    await checkPage(page, 'dashboard-api-webhooks-webhook');

    // A scan is delivered by the worker and appears in the log; its page lists the attempt; redeliver sends it again.
    expect(await scan(app, code.slug)).toBe(302);
    const [, scanCall] = await receiver.waitFor(2);
    expect(verifyServiceSignature(scanCall!.rawBody, scanCall!.headers['x-service-signature'], secret)).toBe(true);
    const scanRow = page.locator('#deliveries tbody tr').filter({ hasText: 'scan.created' });
    // The receiver has the call before the worker records its answer: reload until the log shows the outcome.
    await expect
      .poll(async () => {
        await page.reload();
        return (await scanRow.count()) === 1 ? scanRow.textContent() : '';
      })
      .toContain('Succeeded');
    expect(await scanRow.textContent()).toMatch(/\d+ ms/);
    await scanRow.getByRole('link').click();
    await expect.poll(() => page.locator('#attempts tbody tr').count()).toBe(1);
    expect(await text(page, '#attempts')).toContain('HTTP 204');
    await checkPage(page, 'dashboard-api-webhooks-delivery');
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => text(page, '.flash-ok')).toContain('Redelivered');
    expect(await page.locator('#attempts tbody tr').count()).toBe(2);
    await receiver.waitFor(3);
    const again = receiver.received[2];
    expect(again!.headers['webhook-id']).toBe(scanCall!.headers['webhook-id']);
    expect(again!.rawBody.equals(scanCall!.rawBody)).toBe(true);

    // Rotation: the page says until when the old secret still signs; the revealed secret is the new one.
    await page.goto(`${app.origin}/api-and-webhooks`);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => text(page, '.flash-ok')).toContain('Secret rotated');
    const overlapUntil = await page.locator('#rotation-overlap time').getAttribute('datetime');
    expect(Math.abs(Date.parse(overlapUntil!) - (Date.now() + 24 * 3600_000))).toBeLessThan(5 * 60_000);
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await expect.poll(() => page.getByLabel('Signing secret', { exact: true }).inputValue()).toMatch(/^whsec_/);
    expect(await page.getByLabel('Signing secret', { exact: true }).inputValue()).not.toBe(secret);
    await checkPage(page, 'dashboard-api-webhooks-rotated');

    // Removal, through its confirmation.
    await page.getByRole('button', { name: 'Remove webhook' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Remove the webhook?');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Remove webhook' }).click();
    await expect.poll(() => text(page, '.flash-ok')).toContain('Webhook removed');
    expect(await page.getByRole('button', { name: 'Send test event' }).count()).toBe(0);

    // On a phone the guide and the log stack under the keys.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.origin}/api-and-webhooks`);
    await screenshot(page, 'dashboard-api-webhooks-phone');

    expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);
});

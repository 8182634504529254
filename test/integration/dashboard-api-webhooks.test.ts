import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys } from '../../src/accounts/api-keys.js';
import { getWebhook, revealWebhookSecret } from '../../src/webhooks/webhook-settings.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { createSignedInPerson } from '../support/factories.js';
import { rawRequest, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SECTION = '/api-and-webhooks';
const HTMX = { 'hx-request': 'true' };

let database: TestDatabase;
let app: TestApp;
let receiver: WebhookReceiver;
let owner: TestPerson;
let ownerHttp: DashboardHttp;
/** Another Business account with a key and a delivery, which `owner` must never reach. */
let other: { person: TestPerson; keyId: string; apiKey: string; deliveryId: string };

// No worker: deliveries here are made by "Send test event" in the request itself.
useDashboardApp((started) => ({ database, app } = started), { webhookWorker: false });
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  owner = await createPerson(database.db);
  ownerHttp = await dashboardHttp(app, owner);

  const person = await createPerson(database.db);
  const key = await createApiKey(database.db, person.accountId, { name: 'other key' });
  const otherHttp = await dashboardHttp(app, person);
  await otherHttp.get(SECTION);
  expect((await otherHttp.post(`${SECTION}/webhook`, { url: receiver.url })).status).toBe(303);
  // Without JavaScript, "Send test event" leads to the new delivery's page.
  const tested = await otherHttp.post(`${SECTION}/webhook/test`, {});
  expect(tested.status).toBe(303);
  const deliveryId = /\/deliveries\/(whd_\w+)$/.exec(tested.headers.get('location') ?? '')?.[1];
  expect(deliveryId).toBeDefined();
  other = { person, keyId: key.id, apiKey: key.key, deliveryId: deliveryId! };
});
afterAll(async () => {
  await receiver?.close();
});

describe('API & webhooks: who may open it', () => {
  it('answers a member with the 403 page, for pages and actions alike, and creates nothing', async () => {
    const { http, ...member } = await createSignedInPerson(database.db, app, { accountId: owner.accountId, role: 'member' });
    const page = await http.get(SECTION);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('Only owners can open this section');
    expect((await http.post(`${SECTION}/keys`, { name: 'sneaky' })).status).toBe(403);
    expect((await http.post(`${SECTION}/webhook/secret`, {})).status).toBe(403);
    expect((await listApiKeys(database.db, owner.accountId)).map((key) => key.name)).not.toContain('sneaky');
  });

  it('sends a person who is not signed in to sign in', async () => {
    const http = await dashboardHttp(app);
    const response = await http.get(SECTION);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/login?next=${encodeURIComponent(SECTION)}`);
  });
});

describe("another account's keys and deliveries", () => {
  it("answers 404 for another account's key, and revoking it leaves the key working", async () => {
    await ownerHttp.get(SECTION);
    expect((await ownerHttp.get(`${SECTION}/keys/${other.keyId}/revoke`)).status).toBe(404);
    expect((await ownerHttp.post(`${SECTION}/keys/${other.keyId}/revoke`, {})).status).toBe(404);
    expect((await ownerHttp.post(`${SECTION}/keys/not-a-key-id/revoke`, {})).status).toBe(404);
    expect((await listApiKeys(database.db, other.person.accountId))[0]!.revokedAt).toBeNull();
    expect((await rawRequest(app, '/qrcodes', { apiKey: other.apiKey })).status).toBe(200);
  });

  it("answers 404 for another account's delivery (page and redeliver) and for ids that are no delivery", async () => {
    const page = await ownerHttp.get(`${SECTION}/deliveries/${other.deliveryId}`);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain(other.deliveryId.slice(4));
    const before = receiver.received.length;
    expect((await ownerHttp.post(`${SECTION}/deliveries/${other.deliveryId}/redeliver`, {})).status).toBe(404);
    expect(receiver.received.length).toBe(before);
    expect((await ownerHttp.get(`${SECTION}/deliveries/whd_nope`)).status).toBe(404);
    expect((await ownerHttp.get(`${SECTION}/deliveries?cursor=${encodeURIComponent("x' or 1=1")}`)).status).toBe(400);
    // The owner's own log does not list it either.
    expect(await (await ownerHttp.get(`${SECTION}/deliveries`)).text()).not.toContain(other.deliveryId);
  });
});

describe('plans without the API', () => {
  it('says why (Business, 39 EUR per month), shows no create button, and refuses a crafted create', async () => {
    const { http, ...pro } = await createSignedInPerson(database.db, app, { plan: 'pro' });
    const html = await (await http.get(SECTION)).text();
    expect(html).toContain('The API is part of the Business plan (39 EUR per month)');
    expect(html).not.toContain('Create API key');
    const refused = await http.post(`${SECTION}/keys`, { name: 'anyway' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Business plan (39 EUR per month)');
    expect(await listApiKeys(database.db, pro.accountId)).toEqual([]);
  });
});

describe('forms', () => {
  it('refuses a POST without the CSRF token or with a wrong one, and creates nothing', async () => {
    await ownerHttp.get(SECTION);
    for (const csrf of [false, 'wrong'] as const) {
      const response = await ownerHttp.post(`${SECTION}/keys`, { name: `csrf-${csrf}` }, { csrf });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('This form has expired');
    }
    expect((await ownerHttp.post(`${SECTION}/webhook/secret`, {}, { csrf: false })).status).toBe(403);
    expect((await listApiKeys(database.db, owner.accountId)).filter((key) => key.name?.startsWith('csrf-'))).toEqual([]);
  });

  it('keeps what was typed and says what is wrong beside the field (400)', async () => {
    await ownerHttp.get(SECTION);
    const longName = 'n'.repeat(101);
    const name = await ownerHttp.post(`${SECTION}/keys`, { name: longName });
    expect(name.status).toBe(400);
    const nameHtml = await name.text();
    expect(nameHtml).toContain('id="api-key-name-error"');
    expect(nameHtml).toContain('must be at most 100 characters');
    expect(nameHtml).toContain(`value="${longName}"`);

    const url = await ownerHttp.post(`${SECTION}/webhook`, { url: 'ftp://files.example.com/<hook>' });
    expect(url.status).toBe(400);
    const urlHtml = await url.text();
    expect(urlHtml).toContain('id="webhook-url-error"');
    expect(urlHtml).toContain('Webhook URL must use http or https');
    expect(urlHtml).toContain('value="ftp://files.example.com/&lt;hook>"');
    expect(await getWebhook(database.db, owner.accountId)).toBeUndefined();
  });

  it('never puts the signing secret in the page; it comes only from the reveal request', async () => {
    await ownerHttp.get(SECTION);
    expect((await ownerHttp.post(`${SECTION}/webhook`, { url: receiver.url })).status).toBe(303);
    const secret = (await revealWebhookSecret(database.db, app.box, owner.accountId))!;
    const page = await ownerHttp.get(SECTION);
    const html = await page.text();
    expect(html).toContain('Reveal secret');
    expect(html).not.toContain(secret);
    const fragment = await ownerHttp.post(`${SECTION}/webhook/secret`, {}, { headers: HTMX });
    expect(fragment.headers.get('cache-control')).toBe('no-store');
    const fragmentHtml = await fragment.text();
    expect(fragmentHtml).toContain(`value="${secret}"`);
    expect(fragmentHtml).not.toContain('<html');
    // Without JavaScript the form posts normally and the whole page comes back with the secret in it.
    const whole = await ownerHttp.post(`${SECTION}/webhook/secret`, {});
    expect(whole.status).toBe(200);
    expect(whole.headers.get('cache-control')).toBe('no-store');
    const wholeHtml = await whole.text();
    expect(wholeHtml).toContain(`value="${secret}"`);
    expect(wholeHtml).toContain('<h1>API &amp; webhooks</h1>');
  });
});

describe('page weights', () => {
  it('keeps every page of the section small', async () => {
    await ownerHttp.get(SECTION);
    const test = await ownerHttp.post(`${SECTION}/webhook/test`, {});
    const deliveryPath = test.headers.get('location')!;
    const key = await createApiKey(database.db, owner.accountId, { name: 'weighed' });
    const weights: Record<string, number> = {};
    for (const path of [SECTION, `${SECTION}/deliveries`, deliveryPath, `${SECTION}/keys/${key.id}/revoke`, `${SECTION}/webhook/remove`]) {
      const response = await ownerHttp.get(path);
      expect(response.status, path).toBe(200);
      weights[path.replace(/whd_\w+|key_\w+/, ':id')] = (await response.arrayBuffer()).byteLength;
    }
    console.log('API & webhooks page weights (HTML bytes):', weights);
    for (const bytes of Object.values(weights)) expect(bytes).toBeLessThan(40_000);
  });
});

describe('times', () => {
  it("shows a key's times in the viewer's zone, named, with the UTC instant kept for machines", async () => {
    const person = await createPerson(database.db);
    const http = await dashboardHttp(app, person);
    const key = await createApiKey(database.db, person.accountId, { name: 'summer key' });
    // created_at is never written by the app (the schema says so); a test moves it to a known summer instant.
    await sql`update api_keys set created_at = '2026-07-01T12:00:00Z' where id = ${key.id}`.execute(database.db);
    const inNewYork = await (await http.get(`${SECTION}?tz=America/New_York`)).text();
    expect(inNewYork).toContain('<time datetime="2026-07-01T12:00:00.000Z" title="2026-07-01 12:00:00 UTC"><span class="nowrap">1 Jul 2026</span> <span class="nowrap">08:00 GMT-4</span></time>');
    const inBerlin = await (await http.get(`${SECTION}?tz=Europe/Berlin`)).text();
    expect(inBerlin).toContain('<span class="nowrap">14:00 CEST</span>');
  });
});

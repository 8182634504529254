import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { createTypedCode } from '../../src/codes/typed-code.js';
import { CODE_TYPE_NAMES, type CodeTypeName } from '../../src/codes/types/index.js';
import type { TestDatabase } from '../support/database.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import { createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { pdf, png, storeSampleFile } from '../support/sample-files.js';
import { deleteFile, findLiveFile } from '../../src/files/file-records.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { createTestTypedCode } from '../support/factories.js';

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let database: TestDatabase;
let app: TestApp;
let owner: TestAccount;

// No worker: the outbox rows stay as the scan wrote them.
useTestApp((started) => ({ database, app } = started), { webhookWorker: false });
beforeAll(async () => {
  owner = await createTestAccount(database.db, app);
  await setWebhook(database.db, app.box, { accountId: owner.accountId, url: 'http://127.0.0.1:9/hook', allowPrivate: true });
});

function create(type: CodeTypeName, given?: unknown) {
  return createTestTypedCode(database.db, owner, { type, content: given, siteUrl: app.config.siteUrl });
}

function get(path: string, init: { method?: string; userAgent?: string } = {}) {
  return fetch(`${app.origin}${path}`, { method: init.method ?? 'GET', redirect: 'manual', headers: { 'User-Agent': init.userAgent ?? IPHONE_SAFARI } });
}

async function counts(codeId: string) {
  const outbox = await database.db.selectFrom('webhook_deliveries').select('id').where('qr_code_id', '=', codeId).execute();
  return { humans: (await scanCountsOf(database.db, codeId)).scans, outbox: outbox.length };
}

/** What each page type's short URL answers a phone with: content type and a text the page must show. */
const PAGES: Partial<Record<CodeTypeName, [string, string]>> = {
  VCARD_PLUS: ['text/html', 'Save contact'],
  CONTACT: ['text/vcard', 'FN:Ada Lovelace'],
  PDF: ['text/html', 'Open the PDF'],
  IMAGES: ['text/html', 'Gallery, image 2 of 2'],
  VIDEO: ['text/html', 'https://video.example/v/1'],
  MP3: ['text/html', '<audio'],
  BUSINESS: ['text/html', '08:00–12:00, 13:00–18:00'],
  SOCIAL_MEDIA: ['text/html', 'Instagram'],
  COUPON: ['text/html', 'BREAD10'],
  EVENT: ['text/html', 'Add to calendar'],
  TEXT: ['text/html', 'Hello,\nworld'],
  EMAIL: ['text/html', 'mailto:info@example.com?subject=Hi%20there'],
  SMS: ['text/html', 'sms:+15550100?body=STOP'],
  WIFI: ['text/html', 'WIFI:T:WPA;S:Cafe;P:secret123;;'],
};
const pageTypes = Object.keys(PAGES) as CodeTypeName[];
const sizes: Record<string, number> = {};

describe('page types on the short URL', () => {
  it.each(pageTypes)('%s: answers 200 with its page, counts the scan and writes its webhook like a redirect', async (type) => {
    const code = await create(type);
    const res = await get(`/r/${code.slug}`);
    const body = await res.text();
    const [contentType, text] = PAGES[type]!;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(contentType);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(body).toContain(text);
    if (contentType === 'text/html') {
      expect(body).toContain('<meta name="robots" content="noindex"/>');
      expect(body).toContain('Published by Test account');
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'; style-src 'sha256-/);
      // No third-party request: nothing in the page loads from another origin.
      expect(body).not.toMatch(/(src|href)="https?:\/\/[^"]*"[^>]*(rel="stylesheet"|<script)/);
      // One script in all: the coupon's Copy button, inline and allowed by its hash alone.
      const scripts = [...body.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
      expect(body.split('<script').length - 1).toBe(type === 'COUPON' ? 1 : 0);
      for (const script of scripts) {
        expect(res.headers.get('content-security-policy')).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
      }
    }
    sizes[type] = Buffer.byteLength(body);
    // Committed before the answer, as a redirect's scan is: no polling needed.
    expect(await counts(code.id)).toEqual({ humans: 1, outbox: 1 });
  });

  it('does not count HEAD or a bot, and the .vcf/.ics downloads are not scans', async () => {
    const card = await create('VCARD_PLUS');
    expect((await get(`/r/${card.slug}`, { method: 'HEAD' })).status).toBe(200);
    expect((await get(`/r/${card.slug}`, { userAgent: BOT })).status).toBe(200);
    const vcf = await get(`/r/${card.slug}?download=vcf`);
    expect(vcf.headers.get('content-disposition')).toBe('attachment; filename="contact.vcf"');
    expect(await vcf.text()).toContain('TEL;TYPE=VOICE:+44 20 7946 0958');
    expect(await counts(card.id)).toEqual({ humans: 0, outbox: 0 });
    const event = await create('EVENT');
    const ics = await get(`/r/${event.slug}?download=ics`);
    expect(ics.headers.get('content-type')).toContain('text/calendar');
    // In the event's zone, with its VTIMEZONE (src/landing/icalendar.ts).
    expect(await ics.text()).toContain('DTSTART;TZID=Europe/Berlin:20261201T183000\r\n');
    expect(await counts(event.id)).toEqual({ humans: 0, outbox: 0 });
  });

  it('answers the paused page for a paused page-type code and records nothing', async () => {
    const code = await create('TEXT');
    await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: code.id } }, body: { active: false } });
    await expect.poll(async () => (await get(`/r/${code.slug}`)).status).toBe(404);
    expect(await (await get(`/r/${code.slug}`)).text()).toContain('This QR code is paused');
    expect(await counts(code.id)).toEqual({ humans: 0, outbox: 0 });
  });

  afterAll(() => {
    console.log('landing page bytes', JSON.stringify(sizes));
  });
});

describe('redirect types on the short URL', () => {
  it('FACEBOOK redirects to the page, counted with its webhook', async () => {
    const code = await create('FACEBOOK');
    const res = await get(`/r/${code.slug}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://www.facebook.com/bakery');
    expect(await counts(code.id)).toEqual({ humans: 1, outbox: 1 });
  });

  it('APP redirects by the phone system: App Store, Google Play, else the fallback', async () => {
    const code = await create('APP');
    expect((await get(`/r/${code.slug}`)).headers.get('location')).toBe('https://apps.apple.com/app/id1');
    expect((await get(`/r/${code.slug}`, { userAgent: ANDROID_CHROME })).headers.get('location')).toBe(
      'https://play.google.com/store/apps/details?id=x',
    );
    expect((await get(`/r/${code.slug}`, { userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0' })).headers.get('location')).toBe(
      'https://app.example/',
    );
    // Each scan records where that scanner was sent, not the fallback for all of them.
    const served = await database.db.selectFrom('scans').select('destination_url').where('qr_code_id', '=', code.id).orderBy('created_at').execute();
    expect(served.map((s) => s.destination_url)).toEqual([
      'https://apps.apple.com/app/id1',
      'https://play.google.com/store/apps/details?id=x',
      'https://app.example/',
    ]);
  });
});

describe('typed codes in the API', () => {
  it('lists and reads every type, a page type with its short URL as destination', async () => {
    const text = await create('WIFI');
    const { data } = await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id: text.id } } });
    expect(data!.data).toMatchObject({ type: 'WIFI', destinationUrl: `https://qr.test/r/${text.slug}`, shortUrl: `https://qr.test/r/${text.slug}` });
    const listed = await owner.client.raw.GET('/qrcodes', { params: { query: { limit: 100 } } });
    const types = new Set(listed.data!.data.map((c) => c.type));
    for (const type of CODE_TYPE_NAMES.filter((t) => t !== 'URL')) expect(types).toContain(type);
  });

  it('refuses PATCH url on a page type with 409 url_not_applicable and changes nothing', async () => {
    const code = await create('TEXT');
    const res = await owner.client.raw.PATCH('/qrcodes/{id}', {
      params: { path: { id: code.id } },
      body: { url: 'https://example.com/elsewhere', name: 'Renamed' },
    });
    expect(res.response.status).toBe(409);
    expect(res.error).toMatchObject({ error: { code: 'url_not_applicable' } });
    const after = await database.db.selectFrom('qr_codes').select(['name', 'destination_url']).where('id', '=', code.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ name: 'A TEXT code', destination_url: `https://qr.test/r/${code.slug}` });
    const renamed = await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: code.id } }, body: { name: 'Renamed' } });
    expect(renamed.response.status).toBe(200);
  });

  it('refuses content that breaks its schema, with paths, and stores nothing', async () => {
    const result = await createTypedCode(database.db, {
      accountId: owner.accountId, name: ' ', type: 'WIFI', content: { ssid: 'x', security: 'WPA' }, siteUrl: 'https://qr.test', actor: { kind: 'api_key', apiKeyId: owner.keyId },
    });
    expect(result).toEqual({ ok: false, problems: [{ path: '/name', message: 'must not be blank' }, { path: '/content/password', message: 'is required for a secured network' }] });
  });
});

describe('files a code names', () => {
  it("refuses another account's file, a deleted file and a file of the wrong kind, naming the field", async () => {
    const stranger = await createTestAccount(database.db, app);
    const theirs = await storeSampleFile(database.db, stranger.accountId, 'pdf', 'theirs.pdf', pdf());
    const deleted = await storeSampleFile(database.db, owner.accountId, 'pdf', 'old.pdf', pdf());
    await deleteFile(database.db, owner.accountId, deleted.id);
    const picture = await storeSampleFile(database.db, owner.accountId, 'image', 'a.png', png());
    const attempt = (type: CodeTypeName, content: unknown) =>
      createTypedCode(database.db, { accountId: owner.accountId, name: 'Refused', type, content, siteUrl: app.config.siteUrl, actor: { kind: 'api_key', apiKeyId: owner.keyId } });

    for (const [content, message] of [
      [{ fileId: theirs.id }, 'is not a file of this account (it may have been deleted)'],
      [{ fileId: deleted.id }, 'is not a file of this account (it may have been deleted)'],
      [{ fileId: picture.id }, 'is an image file, not pdf'],
    ] as const) {
      expect(await attempt('PDF', content)).toEqual({ ok: false, problems: [{ path: '/content/fileId', message }] });
    }
    expect(await attempt('IMAGES', { fileIds: [picture.id, theirs.id] })).toEqual({
      ok: false, problems: [{ path: '/content/fileIds/1', message: 'is not a file of this account (it may have been deleted)' }],
    });
    const codes = await database.db.selectFrom('qr_codes').select('id').where('account_id', '=', owner.accountId).where('name', '=', 'Refused').execute();
    expect(codes).toEqual([]);
  });

  it('are deleted with a code deleted through the API, unless another live code still shows them', async () => {
    const menu = await storeSampleFile(database.db, owner.accountId, 'pdf', 'menu.pdf', pdf());
    const flyer = await storeSampleFile(database.db, owner.accountId, 'pdf', 'flyer.pdf', pdf());
    const made = (fileId: string) => createTestTypedCode(database.db, owner, { name: 'Menu', type: 'PDF', content: { fileId }, siteUrl: app.config.siteUrl });
    const alone = await made(menu.id);
    const shared = await made(flyer.id);
    await made(flyer.id);
    for (const code of [alone, shared]) {
      expect((await owner.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id: code.id } } })).response.status).toBe(204);
    }
    expect(await findLiveFile(database.db, menu.id)).toBeUndefined();
    expect(await findLiveFile(database.db, flyer.id)).toBeDefined();
  });
});

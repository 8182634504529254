import { createHash, randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getBranding, removeBrandLogo, setBrandColor, setBrandLogo } from '../../src/accounts/branding.js';
import type { CodeTypeName } from '../../src/codes/types/index.js';
import { MAX_VCARD_PHOTO_BYTES } from '../../src/landing/vcard-photo.js';
import { createPerson, dashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import type { TestDatabase } from '../support/database.js';
import { png, storeSampleFile } from '../support/sample-files.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { createSignedInPerson, createTestTypedCode } from '../support/factories.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;

useDashboardApp((started) => ({ database, app } = started), { webhookWorker: false });
beforeAll(async () => {
  owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
});

function create(accountId: string, type: CodeTypeName, content?: unknown) {
  return createTestTypedCode(database.db, { accountId, userId: owner.userId }, { type, content, siteUrl: app.config.siteUrl });
}

async function scan(slug: string, query = '') {
  const res = await fetch(`${app.origin}/r/${slug}${query}`, { redirect: 'manual', headers: { 'User-Agent': IPHONE_SAFARI } });
  return { res, body: await res.text() };
}

function inlineStyle(html: string): string {
  return /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
}

async function fileIsLive(fileId: string): Promise<boolean> {
  const row = await database.db.selectFrom('files').select('deleted_at').where('id', '=', fileId).executeTakeFirst();
  return row !== undefined && row.deleted_at === null;
}

/** Noise does not compress: a 700 × 700 PNG of it is well over a megabyte. */
function noisyPng(width: number, height = width): Buffer {
  const image = new PNG({ width, height });
  image.data.set(randomBytes(image.data.length));
  for (let i = 3; i < image.data.length; i += 4) image.data[i] = 255;
  return PNG.sync.write(image);
}

describe('landing pages in the account colour and logo', () => {
  it('shows the colour on buttons and the bar, allowed by a CSP hash that follows the stylesheet, on the next scan', async () => {
    const code = await create(owner.accountId, 'BUSINESS');
    const before = await scan(code.slug);
    expect(inlineStyle(before.body)).not.toContain('#ffd400');

    await setBrandColor(database.db, owner.accountId, '#FFD400');
    // The change is announced to every instance's cache, so no TTL wait: the next scans show it.
    await expect.poll(async () => inlineStyle((await scan(code.slug)).body), { timeout: 5_000 }).toContain('--a:#ffd400');
    const { res, body } = await scan(code.slug);
    const css = inlineStyle(body);
    // White on this yellow is about 1.5:1, so button text turns black.
    expect(css).toContain(':root{--a:#ffd400;--at:#000000}');
    const hash = createHash('sha256').update(css).digest('base64');
    expect(res.headers.get('content-security-policy')).toContain(`style-src 'sha256-${hash}'`);
  });

  it('shows the logo at the top with the account name as its text and a fixed size; replacing it deletes the old file', async () => {
    const code = await create(owner.accountId, 'TEXT');
    const first = await storeSampleFile(database.db, owner.accountId, 'logo', 'logo.png', png(64, 16));
    await setBrandLogo(database.db, owner.accountId, first.id);
    await expect.poll(async () => (await scan(code.slug)).body, { timeout: 5_000 }).toContain(`/files/${first.id}`);
    const { body } = await scan(code.slug);
    expect(body).toContain(`<header><img class="lg" src="/files/${first.id}" alt="Acme Bakery" width="160" height="48"/></header>`);
    const logo = await fetch(`${app.origin}/files/${first.id}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');

    const second = await storeSampleFile(database.db, owner.accountId, 'logo', 'logo2.png', png(32, 32));
    await setBrandLogo(database.db, owner.accountId, second.id);
    expect(await fileIsLive(first.id)).toBe(false);
    await expect.poll(async () => (await scan(code.slug)).body, { timeout: 5_000 }).toContain(`/files/${second.id}`);

    await removeBrandLogo(database.db, owner.accountId);
    expect(await fileIsLive(second.id)).toBe(false);
    expect(await getBranding(database.db, owner.accountId)).toMatchObject({ logoFileId: null });
    await expect.poll(async () => (await scan(code.slug)).body, { timeout: 5_000 }).not.toContain('<header>');
  });

  it('keeps a replaced logo file that a contact card still shows as its photo', async () => {
    const logo = await storeSampleFile(database.db, owner.accountId, 'logo', 'face-logo.png', png(48, 48));
    await setBrandLogo(database.db, owner.accountId, logo.id);
    const contact = await create(owner.accountId, 'CONTACT', { name: 'Ada Lovelace', phones: ['+44 20 7946 0958'], photoFileId: logo.id });

    await setBrandLogo(database.db, owner.accountId, (await storeSampleFile(database.db, owner.accountId, 'logo', 'new.png', png(32, 32))).id);
    expect(await fileIsLive(logo.id)).toBe(true);
    await expect.poll(async () => (await scan(contact.slug)).body, { timeout: 10_000 }).toContain('PHOTO;');
  });

  it("refuses another account's file, a file that is not a logo, and a colour that is not hex", async () => {
    const other = await createPerson(database.db, { accountName: 'Other' });
    const theirs = await storeSampleFile(database.db, other.accountId, 'logo', 'x.png', png());
    await expect(setBrandLogo(database.db, owner.accountId, theirs.id)).rejects.toThrow('not available');
    const image = await storeSampleFile(database.db, owner.accountId, 'image', 'x.png', png());
    await expect(setBrandLogo(database.db, owner.accountId, image.id)).rejects.toThrow('not available');
    for (const bad of ['red', '#12345', '#gggggg', "#fff;}body{display:none"]) {
      await expect(setBrandColor(database.db, owner.accountId, bad)).rejects.toThrow('six hex digits');
    }
    expect((await setBrandColor(database.db, owner.accountId, ' #AbC ')).color).toBe('#aabbcc');
  });

  it("shows a paused code's page in the account colour and logo (a 404 its CSP allows), and a deleted code's page plain", async () => {
    const logo = await storeSampleFile(database.db, owner.accountId, 'logo', 'paused-logo.png', png(64, 16));
    await setBrandLogo(database.db, owner.accountId, logo.id);
    await setBrandColor(database.db, owner.accountId, '#0a7c3e');
    const code = await create(owner.accountId, 'TEXT');
    await database.db.updateTable('qr_codes').set({ active: false }).where('id', '=', code.id).execute();
    await expect.poll(async () => (await scan(code.slug)).res.status, { timeout: 5_000 }).toBe(404);
    const { res, body } = await scan(code.slug);
    expect(body).toContain('This QR code is paused');
    expect(body).toContain(`<img class="lg" src="/files/${logo.id}" alt="Acme Bakery"`);
    const css = inlineStyle(body);
    expect(css).toContain('--a:#0a7c3e');
    expect(res.headers.get('content-security-policy')).toContain(`style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    expect(res.headers.get('cache-control')).toBe('no-store');

    await database.db.updateTable('qr_codes').set({ deleted_at: new Date() }).where('id', '=', code.id).execute();
    await expect.poll(async () => (await scan(code.slug)).body, { timeout: 5_000 }).toContain('QR code not found');
    const gone = (await scan(code.slug)).body;
    expect(gone).not.toContain('Acme');
    expect(gone).not.toContain('/files/');
  });
});

describe('the vCard photo', () => {
  it('inlines a large photo drawn smaller, within the bound, with lines folded at 75 octets', async () => {
    const big = noisyPng(700);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const photo = await storeSampleFile(database.db, owner.accountId, 'image', 'face.png', big);
    const content = { name: 'Ada Lovelace', phones: ['+44 20 7946 0958'], photoFileId: photo.id };
    const contact = await create(owner.accountId, 'CONTACT', content);
    // Drawing the photo smaller takes a moment once; a card asked for meanwhile (over 1.5 s) goes without it.
    await expect.poll(async () => (await scan(contact.slug)).body, { timeout: 10_000 }).toContain('PHOTO;');
    const { res, body } = await scan(contact.slug);
    expect(res.headers.get('content-type')).toContain('text/vcard');
    expect(body).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
    for (const line of body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const unfolded = body.replace(/\r\n /g, '');
    const base64 = /\r\nPHOTO;ENCODING=b;TYPE=PNG:([A-Za-z0-9+/=]+)\r\n/.exec(unfolded)?.[1];
    expect(base64).toBeDefined();
    const bytes = Buffer.from(base64!, 'base64');
    expect(bytes.length).toBeLessThanOrEqual(MAX_VCARD_PHOTO_BYTES);
    const decoded = PNG.sync.read(bytes);
    expect(decoded.width).toBe(decoded.height);
    expect(decoded.width).toBeLessThanOrEqual(256);
    expect(Buffer.byteLength(body)).toBeLessThan(100 * 1024);

    // The VCARD_PLUS page shows the same photo, and its .vcf carries it.
    const card = await create(owner.accountId, 'VCARD_PLUS', { ...content, title: 'Analyst' });
    expect((await scan(card.slug)).body).toContain(`<img class="ph" src="/files/${photo.id}" alt="Photo of Ada Lovelace" width="160" height="160"/>`);
    expect((await scan(card.slug, '?download=vcf')).body.replace(/\r\n /g, '')).toContain(`PHOTO;ENCODING=b;TYPE=PNG:${base64}`);
  });

  it('leaves out, without decoding it, a photo whose header declares more pixels than the server decodes', async () => {
    // 8,000 × 8,000 fits what may be stored (a big photo) but not what is decoded here (a bomb would abort the
    // process on every scan): the card goes out without a photo, at once, and the instance stays up.
    const bomb = png(4, 4);
    bomb.writeUInt32BE(8000, 16);
    bomb.writeUInt32BE(8000, 20);
    const photo = await storeSampleFile(database.db, owner.accountId, 'image', 'huge.png', bomb);
    const contact = await create(owner.accountId, 'CONTACT', { name: 'Huge', photoFileId: photo.id });
    const { res, body } = await scan(contact.slug);
    expect(res.status).toBe(200);
    expect(body).toContain('FN:Huge');
    expect(body).not.toContain('PHOTO');
  });

  it('inlines a small JPEG or PNG as it is', async () => {
    const small = png(8, 8, [0, 128, 255, 255]);
    const photo = await storeSampleFile(database.db, owner.accountId, 'image', 'small.png', small);
    const contact = await create(owner.accountId, 'CONTACT', { name: 'Small', photoFileId: photo.id });
    expect((await scan(contact.slug)).body.replace(/\r\n /g, '')).toContain(`PHOTO;ENCODING=b;TYPE=PNG:${small.toString('base64')}\r\n`);
  });
});

describe('the Landing pages settings', () => {
  it('lets an owner save a colour, upload and remove a logo, and open a sample page under the page CSP', async () => {
    const { http, ...person } = await createSignedInPerson(database.db, app, { accountName: 'Settings Ltd' });
    const page = await http.get('/account/branding');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<label for="brand-picker">Colour</label>');
    expect(html).toContain('<label for="brand-hex">Colour as hex</label>');

    // The hex field wins when it changed; the picker when only it changed.
    expect((await http.post('/account/branding/color', { saved: '#1f5fbf', picker: '#1f5fbf', hex: '#0A7C3E' })).status).toBe(303);
    expect((await getBranding(database.db, person.accountId)).color).toBe('#0a7c3e');
    expect((await http.post('/account/branding/color', { saved: '#0a7c3e', picker: '#aa0000', hex: '#0a7c3e' })).status).toBe(303);
    expect((await getBranding(database.db, person.accountId)).color).toBe('#aa0000');
    const refused = await http.post('/account/branding/color', { saved: '#aa0000', picker: '#aa0000', hex: 'blue' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Enter the colour as # and six hex digits');

    const sample = await http.get('/account/branding/sample?saved=%23aa0000&picker=%23aa0000&hex=%23ffd400');
    expect(await sample.text()).toContain('data-accent="#ffd400"');

    const upload = async (name: string, bytes: Buffer, type: string) => {
      const form = new FormData();
      form.set('logo', new Blob([new Uint8Array(bytes)], { type }), name);
      return fetch(`${app.origin}/account/branding/logo?_csrf=${encodeURIComponent(http.csrfToken)}`, {
        method: 'POST',
        headers: { cookie: http.cookie },
        body: form,
        redirect: 'manual',
      });
    };
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#0a7c3e"/></svg>');
    expect((await upload('logo.svg', svg, 'image/svg+xml')).status).toBe(303);
    const logoId = (await getBranding(database.db, person.accountId)).logoFileId!;
    expect(logoId).toMatch(/^fil_/);
    const refusedFile = await upload('logo.png', Buffer.from('<html>not an image</html>'), 'image/png');
    expect(refusedFile.status).toBe(415);
    expect(await refusedFile.text()).toContain('This file must be a PNG, JPEG, WebP or SVG image');
    expect((await getBranding(database.db, person.accountId)).logoFileId).toBe(logoId);

    // A large logo is drawn into the page's logo box (3 × 160 × 48) so phones do not fetch it whole.
    const wide = noisyPng(900, 300);
    expect((await upload('wide.png', wide, 'image/png')).status).toBe(303);
    const wideId = (await getBranding(database.db, person.accountId)).logoFileId!;
    expect(await fileIsLive(logoId)).toBe(false);
    const served = Buffer.from(await (await fetch(`${app.origin}/files/${wideId}`)).arrayBuffer());
    expect(served.length).toBeLessThan(wide.length / 4);
    expect(PNG.sync.read(served)).toMatchObject({ width: 480, height: 144 });
    const tooLarge = await upload('huge.png', noisyPng(800, 800), 'image/png');
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain('This file is larger than 2 MB');

    const preview = await http.get('/account/branding/preview');
    const previewHtml = await preview.text();
    expect(previewHtml).toContain('Corner Bakery');
    expect(previewHtml).toContain(`alt="Settings Ltd"`);
    const hash = createHash('sha256').update(inlineStyle(previewHtml)).digest('base64');
    expect(preview.headers.get('content-security-policy')).toContain(`style-src 'sha256-${hash}'`);
    expect(inlineStyle(previewHtml)).toContain('--a:#aa0000');

    expect((await http.post('/account/branding/logo/remove', {})).status).toBe(303);
    expect(await fileIsLive(wideId)).toBe(false);
  });

  it('is for owners only, and linked from the account page for them', async () => {
    const { http, ...member } = await createSignedInPerson(database.db, app, { accountId: owner.accountId, role: 'member' });
    expect((await http.get('/account/branding')).status).toBe(403);
    expect((await http.post('/account/branding/color', { hex: '#000000' })).status).toBe(403);
    expect(await (await http.get('/account')).text()).not.toContain('/account/branding');
    const ownerHttp = await dashboardHttp(app, owner);
    expect(await (await ownerHttp.get('/account')).text()).toContain('href="/account/branding"');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { listDestinationChanges } from '../../src/codes/index.js';
import { CODE_TYPE_NAMES, type CodeTypeName } from '../../src/codes/types/index.js';
import { findLiveFile } from '../../src/files/file-records.js';
import type { TestDatabase } from '../support/database.js';
import { createTestTypedCode } from '../support/factories.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { mp3, pdf, png } from '../support/sample-files.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { startWebhookReceiver, verifyServiceSignature, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Every type through the dashboard's real forms over HTTP: the form page is fetched, its fields are read as a
 * browser would send them (hidden fields, the CSRF token, file inputs as uploads), some are filled in and it is
 * submitted. Then the short URL is scanned as a phone, the scan is counted on the code page and its webhook
 * arrives signed; the code is edited after "printing" and the next scan shows the change.
 */

let database: TestDatabase;
let app: TestApp;
let receiver: WebhookReceiver;
let person: TestPerson;
let http: DashboardHttp;
let secret: string;

useDashboardApp((started) => ({ database, app } = started), {}, { webhooks: { worker: { pollIntervalMs: 100 } } });
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  person = await createPerson(database.db);
  http = await dashboardHttp(app, person);
  secret = (await setWebhook(database.db, app.box, { accountId: person.accountId, url: receiver.url, allowPrivate: true })).secret!;
});
afterAll(async () => {
  await receiver?.close();
});

/** A crawler (isbot says so: not counted, no webhook) that ua-parser still sees as iOS, for the APP redirect. */
const CRAWLER_ON_IPHONE = `${IPHONE_SAFARI} (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`;

type Upload = { field: string; name: string; bytes: Buffer; type: string };

/** What a person types into a type's form, what a phone then sees, and the edit made after printing. */
interface Journey {
  fill: Record<string, string>;
  uploads?: Upload[];
  /** Text in the landing page (or the redirect's Location) after creating. */
  sees: string;
  edit: Record<string, string>;
  editUploads?: Upload[];
  seesAfterEdit: string;
  /** Text the edit took away, no longer seen. */
  gone?: string;
}

const pngFile = (field: string, name: string): Upload => ({ field, name, bytes: png(), type: 'image/png' });
const pdfFile = (field: string, name: string): Upload => ({ field, name, bytes: pdf(), type: 'application/pdf' });

const JOURNEYS: Record<CodeTypeName, Journey> = {
  URL: { fill: { url: 'https://example.com/a' }, sees: 'https://example.com/a', edit: { url: 'https://example.com/b' }, seesAfterEdit: 'https://example.com/b', gone: 'example.com/a' },
  VCARD_PLUS: {
    fill: { '/content/givenName': 'Ada', '/content/familyName': 'Lovelace', '/content/phones/0/number': '+44 20 7946 0958', '/content/phones/0/kind': 'work', '/content/emails/1/address': 'ada@example.com' },
    uploads: [pngFile('upload:/content/photoFileId', 'ada.png')],
    sees: 'Ada Lovelace',
    edit: { '/content/familyName': 'King' },
    seesAfterEdit: 'Ada King',
    gone: 'Lovelace',
  },
  CONTACT: {
    fill: { '/content/givenName': 'Ada', '/content/familyName': 'Lovelace', '/content/phones/0/number': '+44 20 7946 0958', '/content/phones/0/kind': 'mobile' },
    sees: 'N:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nTEL;TYPE=CELL:+44 20 7946 0958',
    edit: { '/content/familyName': 'King' },
    seesAfterEdit: 'FN:Ada King',
  },
  PDF: {
    fill: { '/content/title': 'Menu' },
    uploads: [{ field: 'upload:/content/fileId', name: 'menu.pdf', bytes: pdf(), type: 'application/pdf' }],
    sees: 'Menu',
    edit: { '/content/title': 'Winter menu' },
    editUploads: [{ field: 'upload:/content/fileId', name: 'winter.pdf', bytes: pdf(), type: 'application/pdf' }],
    seesAfterEdit: 'Winter menu',
  },
  IMAGES: {
    fill: { '/content/title': 'Gallery' },
    uploads: [pngFile('upload:/content/fileIds', 'a.png'), pngFile('upload:/content/fileIds', 'b.png')],
    sees: 'Gallery, image 2 of 2',
    edit: { '/content/title': 'Summer', 'remove:/content/fileIds/0': 'on' },
    editUploads: [pngFile('upload:/content/fileIds', 'c.png'), pngFile('upload:/content/fileIds', 'd.png')],
    seesAfterEdit: 'Summer, image 3 of 3',
    gone: 'Gallery',
  },
  VIDEO: { fill: { '/content/url': 'https://video.example/v/1' }, sees: 'https://video.example/v/1', edit: { '/content/url': 'https://video.example/v/2' }, seesAfterEdit: 'https://video.example/v/2' },
  MP3: {
    fill: { '/content/title': 'Song' },
    uploads: [{ field: 'upload:/content/fileId', name: 'song.mp3', bytes: mp3(), type: 'audio/mpeg' }],
    sees: 'aria-label="Song"',
    edit: { '/content/title': 'New song' },
    seesAfterEdit: 'aria-label="New song"',
  },
  BUSINESS: {
    fill: {
      '/content/name': 'Bakery',
      '/content/openingHours/monday/0/opens': '08:00',
      '/content/openingHours/monday/0/closes': '12:00',
      '/content/openingHours/monday/1/opens': '13:00',
      '/content/openingHours/monday/1/closes': '18:00',
      '/content/phone': '+49 30 1234567',
    },
    sees: '08:00–12:00, 13:00–18:00',
    edit: { '/content/openingHours/tuesday/0/opens': '09:00', '/content/openingHours/tuesday/0/closes': '17:30' },
    seesAfterEdit: '09:00–17:30',
  },
  SOCIAL_MEDIA: {
    fill: { '/content/links/0/network': 'instagram', '/content/links/0/url': 'https://instagram.com/bakery' },
    sees: 'https://instagram.com/bakery',
    edit: { '/content/links/1/network': 'github', '/content/links/1/url': 'https://github.com/bakery' },
    seesAfterEdit: 'https://github.com/bakery',
  },
  FACEBOOK: {
    fill: { '/content/pageUrl': 'https://www.facebook.com/bakery' },
    sees: 'https://www.facebook.com/bakery',
    edit: { '/content/pageUrl': 'https://www.facebook.com/bakery2' },
    seesAfterEdit: 'https://www.facebook.com/bakery2',
  },
  COUPON: { fill: { '/content/title': '10% off', '/content/code': 'BREAD10', '/content/expiresAt': '2099-12-31T23:59' }, sees: 'BREAD10', edit: { '/content/code': 'BREAD20' }, seesAfterEdit: 'BREAD20', gone: 'BREAD10' },
  APP: {
    fill: { '/content/appStoreUrl': 'https://apps.apple.com/app/id1', '/content/googlePlayUrl': 'https://play.google.com/store/apps/details?id=x', '/content/fallbackUrl': 'https://app.example/' },
    // The scan is an iPhone's: the App Store.
    sees: 'https://apps.apple.com/app/id1',
    edit: { '/content/appStoreUrl': 'https://apps.apple.com/app/id2' },
    seesAfterEdit: 'https://apps.apple.com/app/id2',
  },
  EVENT: {
    fill: { '/content/title': 'Launch party', '/content/start': '2026-12-01T18:30', '/content/timezone': 'Europe/Berlin' },
    sees: 'Launch party',
    edit: { '/content/title': 'Launch night' },
    seesAfterEdit: 'Launch night',
  },
  TEXT: { fill: { '/content/text': 'Hello,\r\nworld' }, sees: 'Hello,\nworld', edit: { '/content/text': 'Goodbye' }, seesAfterEdit: 'Goodbye' },
  EMAIL: { fill: { '/content/to': 'info@example.com', '/content/subject': 'Hi there' }, sees: 'mailto:info@example.com?subject=Hi%20there', edit: { '/content/to': 'shop@example.com' }, seesAfterEdit: 'mailto:shop@example.com' },
  SMS: { fill: { '/content/phone': '+1 555 0100', '/content/message': 'STOP' }, sees: 'sms:+15550100?body=STOP', edit: { '/content/message': 'START' }, seesAfterEdit: 'sms:+15550100?body=START' },
  WIFI: {
    fill: { '/content/ssid': 'Cafe', '/content/security': 'WPA', '/content/password': 'secret123' },
    sees: 'WIFI:T:WPA;S:Cafe;P:secret123;;',
    edit: { '/content/password': 'secret456' },
    seesAfterEdit: 'WIFI:T:WPA;S:Cafe;P:secret456;;',
  },
};

describe('every type, through its dashboard form', () => {
  it.each(CODE_TYPE_NAMES)('%s: created, scanned by a phone, counted with a signed webhook, edited after printing, and the next scan shows the change', async (type) => {
    const journey = JOURNEYS[type];
    const newPage = await pageText(`/codes/new?type=${type}`);
    const created = await submit(newPage, (action) => action.startsWith('/codes?') || action === '/codes', { name: `A ${type} code`, ...journey.fill }, journey.uploads);
    expect(created.status, await bodyOf(created)).toBe(303);
    const codePath = created.headers.get('location')!.replace(/\?.*$/, '');
    const codeId = codePath.split('/').pop()!;
    const code = await database.db.selectFrom('qr_codes').select(['slug', 'type']).where('id', '=', codeId).executeTakeFirstOrThrow();
    expect(code.type).toBe(type);

    const before = receiver.received.length;
    expect(await scanSees(code.slug)).toContain(journey.sees);
    await expect.poll(() => scansOnPage(codePath)).toBe(1);
    await expect.poll(() => webhooksFor(codeId, before).length, { timeout: 15_000 }).toBe(1);
    const [call] = webhooksFor(codeId, before);
    expect(verifyServiceSignature(call!.rawBody, call!.headers['x-service-signature'], secret)).toBe(true);

    const codePage = await pageText(codePath);
    expect(codePage).toContain(`<h1>A ${type} code</h1>`);
    const edited = await submit(codePage, (action) => action.startsWith(codePath) && !action.startsWith(`${codePath}/`), journey.edit, journey.editUploads);
    expect(edited.status, await bodyOf(edited)).toBe(303);
    expect(edited.headers.get('location')).toBe(`${codePath}?done=saved`);
    // The change reaches the redirect cache by NOTIFY, a moment after the commit: wait for it as a crawler
    // (not counted), then scan as a phone.
    await expect.poll(() => scanSees(code.slug, CRAWLER_ON_IPHONE)).toContain(journey.seesAfterEdit);
    const next = await scanSees(code.slug);
    expect(next).toContain(journey.seesAfterEdit);
    if (journey.gone) expect(next).not.toContain(journey.gone);
    await expect.poll(() => scansOnPage(codePath)).toBe(2);
    await expect.poll(() => webhooksFor(codeId, before).length, { timeout: 15_000 }).toBe(2);
  });

  it('deletes a replaced PDF and images taken off a gallery, and keeps the ones still shown', async () => {
    const created = await submit(await pageText('/codes/new?type=IMAGES'), (a) => a.startsWith('/codes?'), { name: 'Gallery' }, [
      pngFile('upload:/content/fileIds', 'a.png'),
      pngFile('upload:/content/fileIds', 'b.png'),
    ]);
    const codePath = created.headers.get('location')!.replace(/\?.*$/, '');
    const [first, second] = (await contentOf(codePath.split('/').pop()!)).fileIds as string[];
    const page = await pageText(codePath);
    expect(page).toContain('Remove a.png');
    const edited = await submit(page, (a) => a.startsWith(codePath) && !a.startsWith(`${codePath}/`), { 'remove:/content/fileIds/0': 'on' });
    expect(edited.status).toBe(303);
    expect((await contentOf(codePath.split('/').pop()!)).fileIds).toEqual([second]);
    expect(await findLiveFile(database.db, first!)).toBeUndefined();
    expect(await findLiveFile(database.db, second!)).toBeDefined();

    // Deleting the code (its confirmation says so) deletes the files it showed, freeing the account's storage.
    const confirmation = await pageText(`${codePath}/delete`);
    expect(confirmation).toContain('Files it shows (a PDF, images, audio, video, a photo) are deleted with it');
    expect((await http.post(`${codePath}/delete`, {})).status).toBe(303);
    expect(await findLiveFile(database.db, second!)).toBeUndefined();
  });

  it('keeps, when a code is deleted, a file another live code still shows', async () => {
    const made = await submit(await pageText('/codes/new?type=PDF'), (a) => a.startsWith('/codes?'), { name: 'Menu' }, [pdfFile('upload:/content/fileId', 'menu.pdf')]);
    const menuPath = made.headers.get('location')!.replace(/\?.*$/, '');
    const fileId = (await contentOf(menuPath.split('/').pop()!)).fileId as string;
    const twin = await submit(await pageText('/codes/new?type=PDF'), (a) => a.startsWith('/codes?'), { name: 'Menu again', '/content/fileId': fileId });
    expect(twin.status).toBe(303);
    expect((await http.post(`${menuPath}/delete`, {})).status).toBe(303);
    expect(await findLiveFile(database.db, fileId)).toBeDefined();
  });
});

describe('"Add another" rows', () => {
  it('come one at a time with the next button, up to the list’s maximum, and only for list fields', async () => {
    const row = await pageText('/codes/form-row?type=VCARD_PLUS&field=phones&index=3&prefix=new-code');
    expect(row).toMatch(/<label for="new-code-content-phones-3-number"><span class="visually-hidden">Phone 4: <\/span>Number<\/label><input id="new-code-content-phones-3-number" name="\/content\/phones\/3\/number"/);
    expect(row).toContain('hx-get="/codes/form-row?type=VCARD_PLUS&amp;field=phones&amp;index=4&amp;prefix=new-code"');
    const last = await pageText('/codes/form-row?type=VCARD_PLUS&field=phones&index=4&prefix=new-code');
    expect(last).toContain('Phone 5');
    expect(last).not.toContain('Add another');
    for (const query of ['type=VCARD_PLUS&field=phones&index=5', 'type=VCARD_PLUS&field=name&index=0', 'type=NOPE&field=phones&index=0', 'type=SOCIAL_MEDIA&field=links&index=x']) {
      expect((await http.get(`/codes/form-row?${query}`)).status, query).toBe(404);
    }
  });
});

describe('a redirect type edited after printing', () => {
  it('records its new destination in the history as the person’s, as a URL code’s', async () => {
    const created = await submit(await pageText('/codes/new?type=FACEBOOK'), (a) => a.startsWith('/codes?'), { name: 'Like us', '/content/pageUrl': 'https://www.facebook.com/one' });
    const codePath = created.headers.get('location')!.replace(/\?.*$/, '');
    const codeId = codePath.split('/').pop()!;
    await submit(await pageText(codePath), (a) => a.startsWith(codePath) && !a.startsWith(`${codePath}/`), { '/content/pageUrl': 'https://www.facebook.com/two' });
    const history = await listDestinationChanges(database.db, { accountId: person.accountId, codeId, limit: 10 });
    expect(history.map((change) => [change.previousUrl, change.newUrl, change.actor])).toEqual([
      ['https://www.facebook.com/one', 'https://www.facebook.com/two', { kind: 'user', userId: person.userId, email: person.email }],
      [null, 'https://www.facebook.com/one', { kind: 'user', userId: person.userId, email: person.email }],
    ]);
  });
});

describe('contact codes and time zones (issue 26)', () => {
  it('starts a new event or coupon in the viewer’s zone, for app.js to correct to the browser’s', async () => {
    for (const type of ['EVENT', 'COUPON']) {
      const html = await pageText(`/codes/new?type=${type}&tz=Europe/Berlin`);
      expect(html).toMatch(/<input id="new-code-content-timezone" name="\/content\/timezone"[^>]*list="time-zones"[^>]*value="Europe\/Berlin" data-zone-guess="Europe\/Berlin"/);
    }
  });

  it('shows a contact stored with one name and one address split into the form’s parts, asking to check the split', async () => {
    const old = await createTestTypedCode(database.db, person, {
      type: 'VCARD_PLUS',
      content: { name: "Anna Müller-O'Brien", phones: ['+49 170 1234567'], address: 'Hauptstraße 1\n10115 Berlin' },
      siteUrl: app.config.siteUrl,
    });
    const html = await pageText(`/codes/${old.id}`);
    expect(html).toMatch(/name="\/content\/givenName"[^>]*value="Anna"/);
    expect(html).toMatch(/name="\/content\/familyName"[^>]*value="Müller-O'Brien"/);
    expect(html).toContain("This code had one name, “Anna Müller-O'Brien”: check where given and family name divide before saving.");
    expect(html).toMatch(/<textarea[^>]*name="\/content\/street"[^>]*>Hauptstraße 1\n10115 Berlin<\/textarea>/);
    expect(html).toMatch(/name="\/content\/phones\/0\/number"[^>]*value="\+49 170 1234567"/);
    // Saved as shown, the code is in parts.
    await submit(html, (a) => a.startsWith(`/codes/${old.id}`) && !a.startsWith(`/codes/${old.id}/`), { '/content/city': 'Berlin' });
    expect(await contentOf(old.id)).toEqual({ givenName: 'Anna', familyName: "Müller-O'Brien", phones: [{ number: '+49 170 1234567' }], street: 'Hauptstraße 1\n10115 Berlin', city: 'Berlin' });
  });
});

describe('a refused form', () => {
  it('shows each problem next to its field and keeps what was typed, rows and all', async () => {
    const response = await submit(await pageText('/codes/new?type=BUSINESS'), (a) => a.startsWith('/codes?'), {
      name: 'Bakery',
      '/content/name': 'Bakery & Sons',
      '/content/openingHours/friday/0/opens': '18:00',
      '/content/openingHours/friday/0/closes': '09:00',
      '/content/email': 'not-an-email',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('The code was not created');
    expect(html).toMatch(/name="\/content\/openingHours\/friday\/0\/closes"[^>]*value="09:00"[^>]*aria-invalid="true"[^>]*\/>\s*<small class="field-error" id="new-code-content-openingHours-friday-0-closes-error">Friday closes \(1\) must be after opens\.<\/small>/);
    expect(html).toMatch(/<small class="field-error" id="new-code-content-email-error">Email must be an email address\.<\/small>/);
    expect(html).toContain('value="Bakery &amp; Sons"');
    expect(html).toContain('value="not-an-email"');
  });

  it('packs list rows so a problem in the second filled row is shown at that row', async () => {
    const response = await submit(await pageText('/codes/new?type=VCARD_PLUS'), (a) => a.startsWith('/codes?'), {
      name: 'Card',
      '/content/givenName': 'Ada',
      '/content/phones/0/number': '+44 20 7946 0958',
      '/content/phones/3/number': 'call me',
      '/content/phones/3/kind': 'home',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(/name="\/content\/phones\/1\/number"[^>]*value="call me"/);
    expect(html).toMatch(/name="\/content\/phones\/1\/kind"[^>]*>(?:(?!<\/select>)[\s\S])*<option value="home" selected/);
    expect(html).toContain('Phone 2: number must be a phone number');
  });

  it('asks for a given or family name in plain words', async () => {
    const response = await submit(await pageText('/codes/new?type=CONTACT'), (a) => a.startsWith('/codes?'), { name: 'Card', '/content/city': 'Berlin' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('<small class="field-error" id="new-code-content-givenName-error">Give a given name, a family name or both.</small>');
  });

  it('says in plain words that a video needs a file or a link', async () => {
    const response = await submit(await pageText('/codes/new?type=VIDEO'), (a) => a.startsWith('/codes?'), { name: 'Trailer' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('<small class="field-error" id="new-code-content-fileId-error">Upload a video file or give a video link: one of the two, not both.</small>');
  });

  it('edits of a code keep it unchanged when refused, and show the problem', async () => {
    const created = await submit(await pageText('/codes/new?type=WIFI'), (a) => a.startsWith('/codes?'), {
      name: 'Guest Wi-Fi',
      '/content/ssid': 'Cafe',
      '/content/security': 'WPA',
      '/content/password': 'secret123',
    });
    const codePath = created.headers.get('location')!.replace(/\?.*$/, '');
    const response = await submit(await pageText(codePath), (a) => a.startsWith(codePath) && !a.startsWith(`${codePath}/`), { '/content/password': 'short' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Password must be at least 8 bytes for WPA.');
    expect(await contentOf(codePath.split('/').pop()!)).toEqual({ ssid: 'Cafe', security: 'WPA', password: 'secret123', hidden: false });
  });
});

describe('the code list and the code page', () => {
  it('name each code’s type in plain words, say what a scan does, and link to the design page', async () => {
    const created = await submit(await pageText('/codes/new?type=TEXT'), (a) => a.startsWith('/codes?'), { name: 'Plain words', '/content/text': 'Hi' });
    const codePath = created.headers.get('location')!.replace(/\?.*$/, '');
    const page = await pageText(codePath);
    expect(page).toContain('<dd class="code-type">Plain text</dd>');
    expect(page).toContain('Shows a small page hosted here');
    expect(page).toContain(`href="${codePath}/design"`);
    expect(await pageText('/codes?q=Plain+words')).toMatch(/Plain words<\/a><\/th><td data-label="Type">Plain text<\/td>/);
    const picker = await pageText('/codes/new');
    for (const type of CODE_TYPE_NAMES.filter((t) => t !== 'URL')) expect(picker).toContain(`href="/codes/new?type=${type}#form-heading"`);
  });
});

// ---- helpers ----

async function pageText(path: string): Promise<string> {
  const response = await http.get(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

async function bodyOf(response: Response): Promise<string> {
  if (response.status === 303) return '';
  const text = await response.clone().text();
  const problems = [...text.matchAll(/class="(?:field-error|flash flash-error)"[^>]*>([^<]*)</g)].map((m) => m[1]);
  return problems.length > 0 ? problems.join(' | ') : text.slice(0, 2000);
}

/** The number the code page shows as its total of scans by people. */
async function scansOnPage(codePath: string): Promise<number> {
  const text = await (await http.get(codePath)).text();
  return Number(/class="total-scans">([\d,]+)</.exec(text)?.[1]?.replace(/,/g, '') ?? NaN);
}

function webhooksFor(codeId: string, from: number) {
  return receiver.received.slice(from).filter((request) => request.rawBody.toString().includes(codeId));
}

async function contentOf(codeId: string): Promise<Record<string, unknown>> {
  const row = await database.db.selectFrom('qr_codes').select('content').where('id', '=', codeId).executeTakeFirstOrThrow();
  return row.content as Record<string, unknown>;
}

/** What a phone sees on scanning: a redirect's Location, or the page (or file) served. */
async function scanSees(slug: string, userAgent = IPHONE_SAFARI): Promise<string> {
  const response = await fetch(`${app.origin}/r/${slug}`, { redirect: 'manual', headers: { 'User-Agent': userAgent } });
  if (response.status === 302) return response.headers.get('location') ?? '';
  expect(response.status).toBe(200);
  return response.text();
}

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) found[match[1]!] = decode(match[2]!);
  return found;
}

/**
 * Submits the form of `html` whose action `pick` chooses, as a browser would: every field with its current value
 * (hidden fields, the CSRF token, checked boxes, selected options, textareas), `changes` typed over them, and
 * `uploads` as the files chosen. A multipart form is sent as multipart, any other form urlencoded.
 */
async function submit(html: string, pick: (action: string) => boolean, changes: Record<string, string>, uploads: Upload[] = []): Promise<Response> {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => ({ attrs: attributes(m[1]!), body: m[2]! }));
  const form = forms.find((f) => f.attrs.method === 'post' && pick(f.attrs.action ?? ''));
  expect(form, `a form among ${forms.map((f) => f.attrs.action).join(', ')}`).toBeDefined();
  const fields = new Map<string, string>();
  for (const [tag] of form!.body.matchAll(/<input\b[^>]*>/g)) {
    const a = attributes(tag);
    if (!a.name || a.type === 'file' || a.type === 'submit') continue;
    if ((a.type === 'checkbox' || a.type === 'radio') && !/\schecked(?=[\s/>=])/.test(tag)) continue;
    fields.set(a.name, a.value ?? (a.type === 'checkbox' ? 'on' : ''));
  }
  for (const m of form!.body.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) fields.set(attributes(m[1]!).name!, decode(m[2]!));
  for (const m of form!.body.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const options = [...m[2]!.matchAll(/<option\b([^>]*)>/g)].map((o) => ({ value: attributes(o[1]!).value ?? '', selected: /\sselected(?=[\s/>=]|$)/.test(o[1]!) }));
    fields.set(attributes(m[1]!).name!, (options.find((o) => o.selected) ?? options[0])?.value ?? '');
  }
  for (const [name, value] of Object.entries(changes)) fields.set(name, value);
  const action = `${app.origin}${form!.attrs.action}`;
  if (form!.attrs.enctype === 'multipart/form-data') {
    const body = new FormData();
    for (const [name, value] of fields) body.append(name, value);
    for (const upload of uploads) body.append(upload.field, new Blob([new Uint8Array(upload.bytes)], { type: upload.type }), upload.name);
    return fetch(action, { method: 'POST', headers: { cookie: http.cookie, origin: app.origin }, body, redirect: 'manual' });
  }
  expect(uploads, 'uploads need a multipart form').toEqual([]);
  return fetch(action, {
    method: 'POST',
    headers: { cookie: http.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: app.origin },
    body: new URLSearchParams([...fields]),
    redirect: 'manual',
  });
}

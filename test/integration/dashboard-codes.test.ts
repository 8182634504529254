import { beforeAll, describe, expect, it } from 'vitest';
import { createQrCode, deleteQrCode, getQrCode, listDestinationChanges, updateQrCode } from '../../src/codes/index.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { createSignedInPerson } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;
let member: TestPerson;
let stranger: TestPerson;
let ownerHttp: DashboardHttp;
let memberHttp: DashboardHttp;

useDashboardApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createPerson(database.db);
  member = await createPerson(database.db, { accountId: owner.accountId, role: 'member' });
  stranger = await createPerson(database.db);
  [ownerHttp, memberHttp] = await Promise.all([dashboardHttp(app, owner), dashboardHttp(app, member)]);
});

async function makeCode(person: TestPerson, name = 'Poster', url = 'https://example.com/spring') {
  const { code } = await createQrCode(database.db, {
    accountId: person.accountId,
    name,
    destinationUrl: url,
    actor: { kind: 'user', userId: person.userId },
  });
  return code;
}

/** The id in a redirect to a code's page. */
function codeIdFrom(response: Response): string {
  const match = /^\/codes\/(qr_[0-9A-Z]+)\?done=created$/.exec(response.headers.get('location') ?? '');
  expect(match, `location ${response.headers.get('location')}`).not.toBeNull();
  return match![1]!;
}

describe("another account's codes", () => {
  it('are a 404 on every /codes/:id route, images and downloads included, and stay untouched', async () => {
    const theirs = await makeCode(stranger, 'Their poster');
    const ids = [theirs.id, 'qr_00000000000000000000000000', 'not-an-id'];
    for (const id of ids) {
      for (const path of [`/codes/${id}`, `/codes/${id}/qr.svg`, `/codes/${id}/download?format=svg`, `/codes/${id}/download?format=png&size=1024`, `/codes/${id}/delete`]) {
        const response = await ownerHttp.get(path);
        expect(response.status, path).toBe(404);
        expect(await response.text(), path).not.toContain('Their poster');
      }
      for (const [path, fields] of [
        [`/codes/${id}`, { name: 'Mine now', url: 'https://evil.example/' }],
        [`/codes/${id}/pause`, {}],
        [`/codes/${id}/resume`, {}],
        [`/codes/${id}/delete`, {}],
      ] as const) {
        expect((await ownerHttp.post(path, fields)).status, `POST ${path}`).toBe(404);
      }
    }
    const after = await getQrCode(database.db, { accountId: stranger.accountId, id: theirs.id });
    expect(after).toMatchObject({ name: 'Their poster', destinationUrl: 'https://example.com/spring', active: true });
    expect(await (await ownerHttp.get('/codes?q=Their')).text()).toContain('No codes match.');
  });
});

describe('a member', () => {
  it('creates, edits, pauses, resumes and deletes codes, and the history names them', async () => {
    const created = await memberHttp.post('/codes', { name: '  Menu card ', url: 'https://example.com/menu' });
    expect(created.status).toBe(303);
    const id = codeIdFrom(created);
    const page = await (await memberHttp.get(created.headers.get('location')!)).text();
    expect(page).toContain('<h1>Menu card</h1>');
    expect(page).toContain('Code created.');
    expect(page).toContain(`${app.origin}/r/`);
    expect(page).toContain(member.email);

    const edited = await memberHttp.post(`/codes/${id}`, { name: 'Menu card (summer)', url: 'https://example.com/menu-summer' });
    expect(edited.status).toBe(303);
    expect(edited.headers.get('location')).toBe(`/codes/${id}?done=saved`);
    expect(await getQrCode(database.db, { accountId: owner.accountId, id })).toMatchObject({
      name: 'Menu card (summer)',
      destinationUrl: 'https://example.com/menu-summer',
    });
    const history = await listDestinationChanges(database.db, { accountId: owner.accountId, codeId: id, limit: 10 });
    expect(history.map((change) => [change.previousUrl, change.newUrl, change.actor])).toEqual([
      ['https://example.com/menu', 'https://example.com/menu-summer', { kind: 'user', userId: member.userId, email: member.email }],
      [null, 'https://example.com/menu', { kind: 'user', userId: member.userId, email: member.email }],
    ]);

    expect((await memberHttp.post(`/codes/${id}/pause`, {})).headers.get('location')).toBe(`/codes/${id}?done=paused`);
    expect((await getQrCode(database.db, { accountId: owner.accountId, id })).active).toBe(false);
    expect(await (await memberHttp.get(`/codes/${id}`)).text()).toContain('>Resume</button>');
    expect((await memberHttp.post(`/codes/${id}/resume`, {})).status).toBe(303);
    expect((await getQrCode(database.db, { accountId: owner.accountId, id })).active).toBe(true);

    expect((await memberHttp.post(`/codes/${id}/delete`, {})).headers.get('location')).toBe('/codes?deleted=1');
    expect((await memberHttp.get(`/codes/${id}`)).status).toBe(404);
  });
});

describe('deleting', () => {
  it("asks first: the code's page only links to a confirmation that names the code and holds the form", async () => {
    const code = await makeCode(owner, 'Flyer <autumn>');
    const page = await (await ownerHttp.get(`/codes/${code.id}`)).text();
    expect(page).toContain(`href="/codes/${code.id}/delete"`);
    expect(page).not.toContain(`action="/codes/${code.id}/delete"`);

    const confirmation = await ownerHttp.get(`/codes/${code.id}/delete`);
    expect(confirmation.status).toBe(200);
    const text = await confirmation.text();
    expect(text).toContain('<h1>Delete “Flyer &lt;autumn>”?</h1>');
    expect(text).toContain(`action="/codes/${code.id}/delete"`);
    expect(text).toContain('>Delete code</button>');
    // Looking at the confirmation deleted nothing.
    expect((await getQrCode(database.db, { accountId: owner.accountId, id: code.id })).name).toBe('Flyer <autumn>');
  });
});

describe('CSRF', () => {
  it('refuses every code form without the session token, and changes nothing', async () => {
    const code = await makeCode(owner, 'Guarded');
    for (const csrf of [false, 'wrong'] as const) {
      for (const [path, fields] of [
        ['/codes', { name: 'Forged', url: 'https://evil.example/' }],
        [`/codes/${code.id}`, { name: 'Forged', url: 'https://evil.example/' }],
        [`/codes/${code.id}/pause`, {}],
        [`/codes/${code.id}/delete`, {}],
      ] as const) {
        const response = await ownerHttp.post(path, fields, { csrf });
        expect(response.status, `${path} csrf=${csrf}`).toBe(403);
      }
    }
    // Another site's form, even with a token taken from somewhere: refused by its Origin.
    expect((await ownerHttp.post(`/codes/${code.id}/delete`, {}, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect(await getQrCode(database.db, { accountId: owner.accountId, id: code.id })).toMatchObject({ name: 'Guarded', active: true });
    expect(await (await ownerHttp.get('/codes?q=Forged')).text()).toContain('No codes match.');
  });
});

describe('validation', () => {
  it.each([
    ['a javascript: URL', 'javascript:alert(1)', 'The destination URL must use http or https.'],
    ['a URL without scheme', 'example.com/no-scheme', 'The destination URL must be an absolute URL.'],
    ['a URL without host', 'https://', 'The destination URL must be an absolute URL.'],
    ['a URL over 2048 characters', `https://example.com/${'a'.repeat(2100)}`, 'The destination URL must be at most 2048 characters.'],
    ['a URL with credentials', 'https://user:secret@example.com/', 'The destination URL must not contain credentials.'],
  ])('refuses %s next to its field, keeping what was typed', async (_case, url, message) => {
    const response = await ownerHttp.post('/codes', { name: 'Refused', url });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain(`<small class="field-error" id="new-code-url-error">${message}</small>`);
    expect(page).toMatch(/<input type="url" id="new-code-url"[^>]*aria-invalid="true" aria-describedby="new-code-url-error new-code-url-hint"/);
    expect(page).toContain('value="Refused"');
  });

  it('refuses a blank name, on create and on edit, and saves nothing', async () => {
    const created = await ownerHttp.post('/codes', { name: '   ', url: 'https://example.com/' });
    expect(created.status).toBe(400);
    expect(await created.text()).toContain('<small class="field-error" id="new-code-name-error">The name must not be blank.</small>');

    const code = await makeCode(owner, 'Kept');
    const edited = await ownerHttp.post(`/codes/${code.id}`, { name: '', url: 'javascript:void(0)' });
    expect(edited.status).toBe(400);
    const page = await edited.text();
    expect(page).toContain('The name must not be blank.');
    expect(page).toContain('The destination URL must use http or https.');
    expect(page).toContain('Nothing was saved');
    expect(await getQrCode(database.db, { accountId: owner.accountId, id: code.id })).toMatchObject({ name: 'Kept', destinationUrl: 'https://example.com/spring' });
  });

  it("says why when the plan's code limit is reached (402), keeping the form", async () => {
    const { http, ...free } = await createSignedInPerson(database.db, app, { plan: 'free' });
    for (let i = 0; i < 3; i++) await makeCode(free, `Free ${i}`);
    expect(await (await http.get('/codes')).text()).toContain('Free plan · 3 of 3 codes used');
    const response = await http.post('/codes', { name: 'One too many', url: 'https://example.com/' });
    expect(response.status).toBe(402);
    const page = await response.text();
    expect(page).toContain('The Free plan allows 3 codes and all of them are in use.');
    expect(page).toContain('value="One too many"');
  });
});

describe('codes with the same name', () => {
  it('accepts a second code named like another, and its page names the others by short URL, letter case aside', async () => {
    const person = await createPerson(database.db);
    const http = await dashboardHttp(app, person);
    const first = await makeCode(person, '50% off_menu');
    await makeCode(person, '50X offXmenu'); // `%` and `_` are taken literally
    const removed = await makeCode(person, '50% OFF_MENU');
    await deleteQrCode(database.db, { accountId: person.accountId, id: removed.id });
    await makeCode(stranger, '50% off_menu'); // another account's namesake is none of its business

    const created = await http.post('/codes', { name: '50% OFF_menu', url: 'https://example.com/' });
    expect(created.status).toBe(303);
    const page = await (await http.get(created.headers.get('location')!)).text();
    expect(page).toContain('Another code is also named “50% OFF_menu”.');
    expect(page).toContain(`<a href="/codes/${first.id}">/r/${first.slug}</a>`);
    expect(page.match(/href="\/codes\/qr_[0-9A-Z]+">\/r\//g)).toHaveLength(1);

    const alone = await (await http.get(`/codes/${first.id}`)).text();
    expect(alone).toContain(`/r/${(await getQrCode(database.db, { accountId: person.accountId, id: codeIdFrom(created) })).slug}`);

    // The list tells the two apart by their short URLs, and by age under their names (the third name differs).
    const list = await (await http.get('/codes')).text();
    expect(list.match(/class="muted namesake-date">created <time /g)).toHaveLength(2);
  });
});

describe('the list', () => {
  it('searches by name, filters by state, pages newest first with links that keep the query, and answers htmx with the results only', async () => {
    const { http, ...person } = await createSignedInPerson(database.db, app);
    const codes = [];
    for (let i = 0; i < 30; i++) codes.push(await makeCode(person, `Shelf ${String(i).padStart(2, '0')}${i % 3 === 0 ? ' promo' : ''}`));
    for (const code of codes.slice(0, 4)) await updateQrCode(database.db, { accountId: person.accountId, id: code.id, changes: { active: false }, actor: { kind: 'user', userId: person.userId } });

    const first = await (await http.get('/codes')).text();
    expect(first).toContain('Business plan · 30 of 1,000 codes used');
    expect(first).toContain('30 codes, newest first.');
    expect(rowNames(first)).toEqual(codes.slice(5).reverse().map((code) => code.name));
    const next = hrefOf(first, 'Next page');
    expect(first).not.toContain('Previous page');
    const second = await (await http.get(next)).text();
    expect(rowNames(second)).toEqual(codes.slice(0, 5).reverse().map((code) => code.name));
    expect(second).not.toContain('Next page');
    expect(hrefOf(second, 'Previous page')).toBe('/codes');

    const promo = await (await http.get('/codes?q=PROMO&state=active')).text();
    expect(promo).toContain('value="PROMO"');
    expect(rowNames(promo)).toEqual(['Shelf 27 promo', 'Shelf 24 promo', 'Shelf 21 promo', 'Shelf 18 promo', 'Shelf 15 promo', 'Shelf 12 promo', 'Shelf 09 promo', 'Shelf 06 promo']);
    const paused = await (await http.get('/codes?state=paused')).text();
    expect(rowNames(paused)).toEqual(['Shelf 03 promo', 'Shelf 02', 'Shelf 01', 'Shelf 00 promo']);
    expect(paused).toContain('<option value="paused" selected>');

    // Pages of a search keep the search: 10 "promo" codes, 25 a page is one page; pages of "Shelf" are two.
    const shelf = await (await http.get('/codes?q=shelf')).text();
    expect(shelf).toContain('30 codes match, newest first.');
    expect(promo).toContain('8 codes match, newest first.');
    const shelfNext = hrefOf(shelf, 'Next page');
    expect(new URL(shelfNext, app.origin).searchParams.get('q')).toBe('shelf');
    const shelfSecond = await (await http.get(shelfNext)).text();
    expect(rowNames(shelfSecond)).toHaveLength(5);
    expect(hrefOf(shelfSecond, 'Previous page')).toBe('/codes?q=shelf');

    const fragment = await fetch(`${app.origin}/codes?q=promo`, { headers: { cookie: http.cookie, 'hx-request': 'true', 'hx-target': 'code-results' } });
    const html = await fragment.text();
    expect(html.startsWith('<div id="code-results">')).toBe(true);
    expect(html).not.toContain('<html');
    expect(rowNames(html)).toHaveLength(10);

    // A mangled cursor shows the first page rather than an error.
    expect(rowNames(await (await http.get('/codes?after=nonsense')).text())).toHaveLength(25);
  });
});

describe('images', () => {
  it('serves the preview as SVG with a private cache and an ETag, and downloads as files named after the code', async () => {
    const code = await makeCode(owner, 'Café "Nord"/Süd');
    const preview = await ownerHttp.get(`/codes/${code.id}/qr.svg`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/svg+xml');
    expect(preview.headers.get('cache-control')).toBe('private, no-cache');
    expect(await preview.text()).toMatch(/^<svg /);
    const etag = preview.headers.get('etag')!;
    const again = await fetch(`${app.origin}/codes/${code.id}/qr.svg`, { headers: { cookie: ownerHttp.cookie, 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const png = await ownerHttp.get(`/codes/${code.id}/download?format=png&size=1024`);
    expect(png.status).toBe(200);
    const body = Buffer.from(await png.arrayBuffer());
    expect(body.subarray(1, 4).toString()).toBe('PNG');
    const width = body.readUInt32BE(16);
    expect([width, body.readUInt32BE(20)]).toEqual([1024, 1024]);
    expect(png.headers.get('content-disposition')).toBe(
      `attachment; filename="Cafe-Nord-Sud-qr-${width}px.png"; filename*=UTF-8''Caf%C3%A9%20-Nord-S%C3%BCd-qr-${width}px.png`,
    );
    const svg = await ownerHttp.get(`/codes/${code.id}/download?format=svg`);
    expect(svg.headers.get('content-disposition')).toMatch(/^attachment; filename="Cafe-Nord-Sud-qr\.svg"/);
    expect((await ownerHttp.get(`/codes/${code.id}/download?format=png&size=99999`)).status).toBe(404);
    // The PDF for a print shop: named for its size and bleed; a width out of range is refused in words.
    const print = await ownerHttp.get(`/codes/${code.id}/download?format=pdf&size_mm=40&bleed_mm=3&crop_marks=on&cmyk=on`);
    expect(print.status).toBe(200);
    expect(print.headers.get('content-disposition')).toMatch(/^attachment; filename="Cafe-Nord-Sud-qr-40mm-bleed3mm-cmyk\.pdf"/);
    const tooSmall = await ownerHttp.get(`/codes/${code.id}/download?format=pdf&size_mm=2&bleed_mm=3`);
    expect(tooSmall.status).toBe(400);
    expect(await tooSmall.text()).toContain('The width must be a number of millimetres from 10 to 1000.');
  });
});

function rowNames(html: string): string[] {
  return [...html.matchAll(/<th scope="row"><a href="\/codes\/qr_[0-9A-Z]+">([^<]*)<\/a><\/th>/g)].map((match) => match[1]!);
}

function hrefOf(html: string, text: string): string {
  const match = new RegExp(`<a href="([^"]+)">${text}</a>`).exec(html);
  expect(match, text).not.toBeNull();
  return match![1]!.replaceAll('&amp;', '&');
}

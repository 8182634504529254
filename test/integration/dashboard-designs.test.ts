import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createQrCode, deleteQrCode } from '../../src/codes/index.js';
import {
  applyTemplateToCodes,
  createDesignTemplate,
  DesignInvalidError,
  designOfCode,
  designsOfCodes,
  getDesignTemplate,
  listDesignTemplates,
  setCodeDesign,
  setCodeTemplate,
} from '../../src/designs/index.js';
import { DEFAULT_DESIGN, type Design } from '../../src/qr/design/design.js';
import { qrContentFor, qrImageEtag, renderQrImageBody } from '../../src/qr/render.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { createTestAccount, type TestAccount, type TestApp } from '../support/test-app.js';
import { png } from '../support/sample-files.js';
import { createSignedInPerson, createTestCode } from '../support/factories.js';
import { readQrPng } from '../support/design-decode.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;
let member: TestPerson;
let stranger: TestPerson;
let ownerHttp: DashboardHttp;
let memberHttp: DashboardHttp;
let strangerHttp: DashboardHttp;

useDashboardApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createPerson(database.db);
  member = await createPerson(database.db, { accountId: owner.accountId, role: 'member' });
  stranger = await createPerson(database.db);
  [ownerHttp, memberHttp, strangerHttp] = await Promise.all([dashboardHttp(app, owner), dashboardHttp(app, member), dashboardHttp(app, stranger)]);
});

/** A red 24×16 JPEG, as Chromium encodes a screenshot. */
const RED_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAQABgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFgEBAQEAAAAAAAAAAAAAAAAAAAQG/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AngI2kAAf/9k=',
  'base64',
);

const NAVY: Design = { ...DEFAULT_DESIGN, foreground: { type: 'solid', color: '#1a2b6d' }, moduleShape: 'rounded' };
const FRAMED: Design = { ...DEFAULT_DESIGN, frame: { style: 'box', text: 'Scan me', color: '#123456', textColor: '#ffffff' } };

async function makeCode(person: Pick<TestPerson, 'accountId' | 'userId'>, name = 'Poster') {
  const { code } = await createQrCode(database.db, {
    accountId: person.accountId,
    name,
    destinationUrl: 'https://example.com/spring',
    actor: { kind: 'user', userId: person.userId },
  });
  return code;
}

/** The editor's form for `design` (what the browser sends), with some fields changed. */
function editorForm(changes: Record<string, string> = {}): Record<string, string> {
  return {
    fill: 'solid',
    color: '#000000',
    angle: '45',
    stop1: '#000000',
    stop1At: '0',
    stop2: '#333333',
    stop2At: '100',
    stop3: '#000000',
    stop3At: '50',
    background: '#ffffff',
    moduleShape: 'square',
    cornerFrameShape: 'square',
    cornerFrameColor: '#000000',
    cornerDotShape: 'square',
    cornerDotColor: '#000000',
    errorCorrection: 'M',
    quietZone: '4',
    logoSize: '20',
    logoMargin: '1',
    logoClear: 'on',
    frameStyle: 'none',
    frameText: 'Scan me',
    frameColor: '#000000',
    frameTextColor: '#ffffff',
    ...changes,
  };
}

/** The PDF's content streams, inflated (pdfkit compresses each with Flate). */
function pageContents(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  const streams: string[] = [];
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    try {
      streams.push(inflateSync(pdf.subarray(start, text.indexOf('endstream', start))).toString('latin1'));
    } catch {
      // A font program or another stream that is not Flate-compressed page content.
    }
  }
  return streams.join('\n');
}

async function apiImage(account: TestAccount, codeId: string, query: string) {
  const res = await fetch(`${app.apiUrl}/qrcodes/${codeId}/image${query}`, { headers: { Authorization: `Bearer ${account.apiKey}` } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function dashboardImage(http: DashboardHttp, path: string) {
  const res = await http.get(path);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function uploadLogo(http: DashboardHttp, path: string, file: Blob, name: string, headers: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.set('logo', file, name);
  return fetch(`${app.origin}${path}?_csrf=${encodeURIComponent(http.csrfToken)}`, { method: 'POST', headers: { cookie: http.cookie, ...headers }, body: form, redirect: 'manual' });
}

describe('templates belong to one account', () => {
  it("another account can neither see, change, delete nor apply an account's templates, and its codes are out of reach", async () => {
    const template = await createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Brand', design: NAVY });
    const ownCode = await makeCode(owner, 'Ours');
    const strangerCode = await makeCode({ accountId: stranger.accountId, userId: stranger.userId }, 'Theirs');

    expect(await listDesignTemplates(database.db, stranger.accountId)).toEqual([]);
    await expect(getDesignTemplate(database.db, { accountId: stranger.accountId, id: template.id })).rejects.toMatchObject({ status: 404 });
    await expect(setCodeTemplate(database.db, { accountId: stranger.accountId, codeId: strangerCode.id, templateId: template.id })).rejects.toMatchObject({ status: 404 });
    // Another account's code ids and deleted codes are passed over: nothing of theirs follows our template.
    const deletedCode = await makeCode(owner, 'Gone');
    await deleteQrCode(database.db, { accountId: owner.accountId, id: deletedCode.id });
    const codeIds = [strangerCode.id, ownCode.id, deletedCode.id, 'qr_00000000000000000000000000'];
    expect(await applyTemplateToCodes(database.db, { accountId: owner.accountId, templateId: template.id, codeIds })).toBe(1);
    expect((await designOfCode(database.db, stranger.accountId, strangerCode.id)).source).toBe('default');
    await expect(designOfCode(database.db, stranger.accountId, ownCode.id)).rejects.toMatchObject({ status: 404 });

    expect(await (await strangerHttp.get('/designs')).text()).not.toContain('Brand');
    for (const path of [`/designs/${template.id}`, `/designs/${template.id}/delete`, `/designs/${template.id}/preview.svg`, `/codes/${ownCode.id}/design`]) {
      expect((await strangerHttp.get(path)).status, path).toBe(404);
    }
    for (const [path, fields] of [
      [`/designs/${template.id}`, { name: 'Stolen', ...editorForm() }],
      [`/designs/${template.id}/apply`, { code: strangerCode.id }],
      [`/designs/${template.id}/delete`, {}],
      [`/codes/${strangerCode.id}/design/template`, { template: template.id }],
      [`/codes/${ownCode.id}/design`, editorForm({ intent: 'save' })],
      [`/codes/${ownCode.id}/design/template`, { template: 'default' }],
    ] as const) {
      expect((await strangerHttp.post(path, fields)).status, `POST ${path}`).toBe(404);
    }
    expect(await getDesignTemplate(database.db, { accountId: owner.accountId, id: template.id })).toMatchObject({ name: 'Brand', design: NAVY, codeCount: 1 });
    expect((await designOfCode(database.db, owner.accountId, ownCode.id)).source).toBe('template');
    expect((await designOfCode(database.db, stranger.accountId, strangerCode.id)).source).toBe('default');
  });

  it('a member of the account uses its templates: applies one to codes and a code follows it', async () => {
    const template = await createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Shared look', design: NAVY });
    const [a, b] = [await makeCode(member, 'Flyer A'), await makeCode(member, 'Flyer B')];
    const page = await (await memberHttp.get(`/designs/${template.id}?q=Flyer`)).text();
    expect(page).toContain('Flyer A');
    const applied = await memberHttp.post(`/designs/${template.id}/apply`, { code: a.id });
    expect(applied.status).toBe(303);
    expect(applied.headers.get('location')).toBe(`/designs/${template.id}?done=applied&applied=1`);
    const used = await memberHttp.post(`/codes/${b.id}/design/template`, { template: template.id });
    expect(used.status).toBe(303);
    const looks = await designsOfCodes(database.db, owner.accountId, [a.id, b.id]);
    expect([...looks.values()].map((look) => look.source)).toEqual(['template', 'template']);
  });
});

describe('a design that would not scan', () => {
  it('is refused with the reason in words, by the editor and the service, and nothing is stored', async () => {
    const code = await makeCode(owner, 'Pale');
    const refused = await ownerHttp.post(`/codes/${code.id}/design`, editorForm({ intent: 'save', color: '#dddddd' }));
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain('Nothing was saved');
    expect(page).toMatch(/Foreground colour: contrast with the background is 1\.\d\d:1; scanners need at least 3:1/);
    expect((await designOfCode(database.db, owner.accountId, code.id)).source).toBe('default');

    const preview = await ownerHttp.post(`/codes/${code.id}/design/preview`, editorForm({ color: '#dddddd' }), { headers: { 'hx-request': 'true' } });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain('Foreground colour: contrast with the background');

    const asTemplate = await ownerHttp.post(`/codes/${code.id}/design`, editorForm({ intent: 'template', templateName: 'Pale look', color: '#dddddd' }));
    expect(asTemplate.status).toBe(400);
    expect((await listDesignTemplates(database.db, owner.accountId)).map((t) => t.name)).not.toContain('Pale look');

    const pale = { ...DEFAULT_DESIGN, foreground: { type: 'solid', color: '#dddddd' } };
    await expect(setCodeDesign(database.db, { accountId: owner.accountId, codeId: code.id, design: pale })).rejects.toBeInstanceOf(DesignInvalidError);
    await expect(createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Pale', design: pale })).rejects.toBeInstanceOf(DesignInvalidError);
    // An inverted code is stored only once the designer confirms it.
    const inverted = { ...DEFAULT_DESIGN, foreground: { type: 'solid', color: '#ffffff' }, background: '#000000' };
    await expect(setCodeDesign(database.db, { accountId: owner.accountId, codeId: code.id, design: inverted })).rejects.toBeInstanceOf(DesignInvalidError);
    await setCodeDesign(database.db, { accountId: owner.accountId, codeId: code.id, design: { ...inverted, confirmInverted: true } });
    expect((await designOfCode(database.db, owner.accountId, code.id)).source).toBe('own');
  });
});

describe('saving in the editor', () => {
  it('gives the code its own design (detached from its template), or saves it as a template the code follows', async () => {
    const code = await makeCode(owner, 'Editor');
    const template = await createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Before', design: NAVY });
    await setCodeTemplate(database.db, { accountId: owner.accountId, codeId: code.id, templateId: template.id });

    const saved = await ownerHttp.post(`/codes/${code.id}/design`, editorForm({ intent: 'save', color: '#7a1f1f', moduleShape: 'dots' }));
    expect(saved.status).toBe(303);
    const own = await designOfCode(database.db, owner.accountId, code.id);
    expect(own).toMatchObject({ source: 'own', design: { foreground: { type: 'solid', color: '#7a1f1f' }, moduleShape: 'dots' } });

    const gradient = editorForm({ intent: 'template', templateName: 'Sunset', fill: 'linear', stop1: '#5b0e2d', stop2: '#1d3557', angle: '90', frameStyle: 'banner' });
    const asTemplate = await ownerHttp.post(`/codes/${code.id}/design`, gradient);
    expect(asTemplate.status).toBe(303);
    const look = await designOfCode(database.db, owner.accountId, code.id);
    expect(look).toMatchObject({
      source: 'template',
      template: { name: 'Sunset' },
      design: { foreground: { type: 'linear', angle: 90, stops: [{ offset: 0, color: '#5b0e2d' }, { offset: 1, color: '#1d3557' }] }, frame: { style: 'banner', text: 'Scan me' } },
    });
    const taken = await ownerHttp.post(`/codes/${code.id}/design`, { ...gradient, templateName: 'sunset' });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain('a template named “sunset” exists already');
  });
});

describe('deleting a template', () => {
  it('says how many codes follow it, and returns them to the default look', async () => {
    const template = await createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Short-lived', design: NAVY });
    const codes = [await makeCode(owner, 'One'), await makeCode(owner, 'Two')];
    await applyTemplateToCodes(database.db, { accountId: owner.accountId, templateId: template.id, codeIds: codes.map((c) => c.id) });
    const confirm = await (await ownerHttp.get(`/designs/${template.id}/delete`)).text();
    expect(confirm).toContain('2 codes follow it. They go back to the default look');
    const deleted = await ownerHttp.post(`/designs/${template.id}/delete`, {});
    expect(deleted.status).toBe(303);
    const looks = await designsOfCodes(database.db, owner.accountId, codes.map((c) => c.id));
    expect([...looks.values()]).toEqual([{ source: 'default', design: null }, { source: 'default', design: null }]);
    expect((await ownerHttp.get(`/designs/${template.id}`)).status).toBe(404);
  });
});

describe('images of a designed code', () => {
  it('are the same from the API and the dashboard, decode to the short URL, and change their ETag with the design', async () => {
    const account = await createTestAccount(database.db, app);
    const code = await createTestCode(account, { name: 'Designed later' });
    const { http, ...person } = await createSignedInPerson(database.db, app, { accountId: account.accountId });
    const before = await apiImage(account, code.id, '?format=png&size=1024');

    await setCodeDesign(database.db, { accountId: account.accountId, codeId: code.id, design: FRAMED });
    const svgFromApi = await apiImage(account, code.id, '?format=svg&size=1024');
    const svgFromDashboard = await dashboardImage(http, `/codes/${code.id}/download?format=svg`);
    expect(svgFromApi.res.status).toBe(200);
    expect(svgFromApi.bytes.toString()).toContain('Scan me');
    expect(svgFromDashboard.bytes.equals(svgFromApi.bytes)).toBe(true);
    expect(svgFromDashboard.res.headers.get('etag')).toBe(svgFromApi.res.headers.get('etag'));

    const pngFromApi = await apiImage(account, code.id, '?format=png&size=1024');
    const pngFromDashboard = await dashboardImage(http, `/codes/${code.id}/download?format=png&size=1024`);
    expect(pngFromDashboard.bytes.equals(pngFromApi.bytes)).toBe(true);
    expect(pngFromApi.res.headers.get('etag')).not.toBe(before.res.headers.get('etag'));
    expect(PNG.sync.read(pngFromApi.bytes).width).toBe(1024);
    expect(readQrPng(pngFromApi.bytes)).toBe(qrContentFor(code.shortUrl, app.origin));

    const pdfFromApi = await apiImage(account, code.id, '?format=pdf&size=2048');
    expect(pdfFromApi.res.headers.get('content-type')).toBe('application/pdf');
    expect(pdfFromApi.bytes.toString('latin1')).not.toContain('/Font'); // the frame text is outlined
    expect(pdfFromApi.bytes.equals((await dashboardImage(http, `/codes/${code.id}/download?format=pdf`)).bytes)).toBe(true);

    // A changed design is a new ETag; the old one no longer answers 304.
    const oldEtag = pngFromApi.res.headers.get('etag')!;
    await setCodeDesign(database.db, { accountId: account.accountId, codeId: code.id, design: NAVY });
    const changed = await fetch(`${app.apiUrl}/qrcodes/${code.id}/image?format=png&size=1024`, {
      headers: { Authorization: `Bearer ${account.apiKey}`, 'If-None-Match': oldEtag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(oldEtag);
    expect(readQrPng(Buffer.from(await changed.arrayBuffer()))).toBe(qrContentFor(code.shortUrl, app.origin));
  });

  it("of an API-created code stay byte for byte the plain renderer's, with the same ETag", async () => {
    const account = await createTestAccount(database.db, app);
    const code = await createTestCode(account, { name: 'Plain' });
    for (const [query, format, size] of [['', 'svg', 512], ['?format=png&size=300', 'png', 300]] as const) {
      const request = { text: qrContentFor(code.shortUrl, app.origin), format, size, margin: 4, ecc: 'M' } as const;
      const { res, bytes } = await apiImage(account, code.id, query);
      expect(res.headers.get('etag')).toBe(qrImageEtag(request));
      expect(bytes.equals(await renderQrImageBody(request))).toBe(true);
    }
  });

  it('download as a one-page vector PDF with no font at all: frame text is outlined', async () => {
    const framed = await makeCode(owner, 'Print me');
    await setCodeDesign(database.db, { accountId: owner.accountId, codeId: framed.id, design: FRAMED });
    const plain = await makeCode(owner, 'Print plain');
    for (const code of [framed, plain]) {
      const { res, bytes } = await dashboardImage(ownerHttp, `/codes/${code.id}/download?format=pdf`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toContain('-qr.pdf');
      const text = bytes.toString('latin1');
      expect(text.startsWith('%PDF-')).toBe(true);
      expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
      expect(text.match(/\/Type \/Page\b/g)).toHaveLength(1);
      expect(text).toContain('/Count 1');
      expect(text, `no font in ${code.name}`).not.toContain('/Font');
      // 5 cm plus 0.5 cm on each side: 6 cm is 170.08 points.
      expect(text).toMatch(/\/MediaBox \[0 0 170\.07\d+ /);
      // And the code is drawn 5 cm (141.73 points) wide inside it: the page's drawing is clipped to that width.
      expect(pageContents(bytes)).toMatch(/^0 0 m\n141\.732283 0 l$/m);
    }
  });
});

describe('logos', () => {
  it('are uploaded as PNG or SVG, kept as PNG in the design, and anything else is refused with a reason', async () => {
    const code = await makeCode(owner, 'With logo');
    await ownerHttp.get(`/codes/${code.id}/design`);
    const logo = PNG.sync.write(Object.assign(new PNG({ width: 64, height: 64 }), { data: Buffer.alloc(64 * 64 * 4, 200) }));
    const uploaded = await uploadLogo(ownerHttp, `/codes/${code.id}/design/logo`, new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
    expect(uploaded.status).toBe(303);
    const look = await designOfCode(database.db, owner.accountId, code.id);
    expect(look.design?.logo).toMatchObject({ png: logo.toString('base64'), size: 0.2, clearBehind: true });

    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c00"/></svg>';
    const svgUpload = await uploadLogo(ownerHttp, `/codes/${code.id}/design/logo`, new Blob([svg], { type: 'image/svg+xml' }), 'logo.svg');
    expect(svgUpload.status).toBe(303);
    const fromSvg = Buffer.from((await designOfCode(database.db, owner.accountId, code.id)).design!.logo!.png, 'base64');
    expect(fromSvg.subarray(1, 4).toString()).toBe('PNG');

    // A JPEG is redrawn as a square PNG, centred: red in the middle, transparent above and below.
    const jpegUpload = await uploadLogo(ownerHttp, `/codes/${code.id}/design/logo`, new Blob([new Uint8Array(RED_JPEG)], { type: 'image/jpeg' }), 'logo.jpg');
    expect(jpegUpload.status).toBe(303);
    const fromJpeg = PNG.sync.read(Buffer.from((await designOfCode(database.db, owner.accountId, code.id)).design!.logo!.png, 'base64'));
    expect([fromJpeg.width, fromJpeg.height]).toEqual([512, 512]);
    const pixel = (x: number, y: number) => [...fromJpeg.data.subarray((y * 512 + x) * 4, (y * 512 + x) * 4 + 4)];
    expect(pixel(256, 256)[0]).toBeGreaterThan(150);
    expect(pixel(256, 256)[3]).toBe(255);
    expect(pixel(256, 10)[3]).toBe(0);
    const broken = Buffer.concat([RED_JPEG.subarray(0, 3), Buffer.alloc(200, 7)]);
    const brokenUpload = await uploadLogo(ownerHttp, `/codes/${code.id}/design/logo`, new Blob([new Uint8Array(broken)], { type: 'image/jpeg' }), 'logo.jpg');
    expect(brokenUpload.status).toBe(400);
    expect(await brokenUpload.text()).toContain('The logo image could not be read');
    // A small PNG declaring 40,000 × 40,000 pixels is refused from its header, never decoded.
    const bomb = png(4, 4);
    bomb.writeUInt32BE(40_000, 16);
    bomb.writeUInt32BE(40_000, 20);
    const bombUpload = await uploadLogo(ownerHttp, `/codes/${code.id}/design/logo`, new Blob([new Uint8Array(bomb)], { type: 'image/png' }), 'logo.png');
    expect(bombUpload.status).toBe(400);
    expect(await bombUpload.text()).toContain('The logo image has more than 4096 × 4096 pixels');

    const text = await uploadLogo(ownerHttp, `/codes/${code.id}/design/logo`, new Blob(['hello'], { type: 'image/png' }), 'logo.png');
    expect(text.status).toBe(400);
    expect(await text.text()).toContain('The logo must be a PNG, JPEG or SVG image.');

    // Through htmx (the editor with JavaScript): the logo part alone, saved or refused in place, never a page or a
    // redirect that would throw away the form; a saved logo tells the page to redraw its preview.
    const htmx = { 'HX-Request': 'true' };
    const refusedInPlace = await uploadLogo(ownerHttp, `/codes/${code.id}/design/logo`, new Blob(['hello'], { type: 'image/png' }), 'logo.png', htmx);
    expect(refusedInPlace.status).toBe(200);
    const refusal = await refusedInPlace.text();
    expect(refusal).toContain('The logo was not saved: The logo could not be used. The logo must be a PNG, JPEG or SVG image.');
    expect(refusal).not.toContain('<html');
    const savedInPlace = await uploadLogo(ownerHttp, `/codes/${code.id}/design/logo`, new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png', htmx);
    expect(savedInPlace.status).toBe(200);
    expect(savedInPlace.headers.get('hx-trigger')).toBe('design-logo-saved');
    const saved = await savedInPlace.text();
    expect(saved).toContain('Logo saved with the design');
    expect(saved).toMatch(/<div id="design-remove-logo-slot" hx-swap-oob="true">.*Remove the logo/s);
    expect((await designOfCode(database.db, owner.accountId, code.id)).design?.logo?.png).toBe(logo.toString('base64'));

    // The preview and the image carry it; the code still decodes.
    const image = await dashboardImage(ownerHttp, `/codes/${code.id}/download?format=png&size=1024`);
    expect(readQrPng(image.bytes)).toBe(qrContentFor(`${app.origin}/r/${code.slug}`, app.origin));
  });
});

describe('a template in the editor', () => {
  it('is created, renamed and redesigned, restyling the codes that follow it; a refused design or a taken name changes nothing', async () => {
    const created = await ownerHttp.post('/designs', { name: 'Autumn' });
    expect(created.status).toBe(303);
    const id = /^\/designs\/(dsn_[0-9A-Z]{26})\?done=created$/.exec(created.headers.get('location') ?? '')?.[1];
    expect(id).toBeDefined();
    expect((await ownerHttp.post('/designs', { name: ' autumn ' })).status).toBe(400);
    const code = await makeCode(owner, 'Follower');
    await setCodeTemplate(database.db, { accountId: owner.accountId, codeId: code.id, templateId: id! });

    const editor = await (await ownerHttp.get(`/designs/${id}`)).text();
    expect(editor).toContain('Template “Autumn”');
    expect(editor).toContain('1 code follows this template.');
    const preview = await ownerHttp.post(`/designs/${id}/preview`, editorForm({ color: '#8b3a0f' }), { headers: { 'hx-request': 'true' } });
    expect(await preview.text()).toContain('fill="#8b3a0f"');

    const imageBefore = await ownerHttp.get(`/codes/${code.id}/qr.svg`);
    const saved = await ownerHttp.post(`/designs/${id}`, { name: 'Autumn 2026', ...editorForm({ color: '#8b3a0f', cornerDotShape: 'rounded' }) });
    expect(saved.status).toBe(303);
    // The code's image follows its template: a new ETag and the new colour.
    const imageAfter = await ownerHttp.get(`/codes/${code.id}/qr.svg`);
    expect(imageAfter.headers.get('etag')).not.toBe(imageBefore.headers.get('etag'));
    expect(await imageAfter.text()).toContain('fill="#8b3a0f"');
    expect(await designOfCode(database.db, owner.accountId, code.id)).toMatchObject({
      source: 'template',
      template: { id, name: 'Autumn 2026' },
      design: { foreground: { type: 'solid', color: '#8b3a0f' }, cornerDot: { shape: 'rounded' } },
    });

    const pale = await ownerHttp.post(`/designs/${id}`, { name: 'Pale', ...editorForm({ color: '#eeeeee' }) });
    expect(pale.status).toBe(400);
    expect(await pale.text()).toContain('Foreground colour: contrast with the background');
    await createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Taken', design: NAVY });
    const taken = await ownerHttp.post(`/designs/${id}`, { name: 'TAKEN', ...editorForm() });
    expect(taken.status).toBe(400);
    expect(await getDesignTemplate(database.db, { accountId: owner.accountId, id: id! })).toMatchObject({
      name: 'Autumn 2026',
      design: { foreground: { color: '#8b3a0f' } },
    });

    const logo = PNG.sync.write(Object.assign(new PNG({ width: 32, height: 32 }), { data: Buffer.alloc(32 * 32 * 4, 90) }));
    await ownerHttp.get(`/designs/${id}`);
    const uploaded = await uploadLogo(ownerHttp, `/designs/${id}/logo`, new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
    expect(uploaded.status).toBe(303);
    expect((await designOfCode(database.db, owner.accountId, code.id)).design?.logo?.png).toBe(logo.toString('base64'));
  });
});

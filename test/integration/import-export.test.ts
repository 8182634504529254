import { request, type IncomingMessage } from 'node:http';
import { strToU8, unzipSync, zipSync } from 'fflate';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteQrCode, updateQrCode } from '../../src/codes/qr-code-service.js';
import { CODE_TYPE_NAMES } from '../../src/codes/types/index.js';
import { createDesignTemplate } from '../../src/designs/index.js';
import { DEFAULT_DESIGN } from '../../src/qr/design/design.js';
import { createImportJob, type ImportJob } from '../../src/imports/import-job.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import type { TestApp } from '../support/test-app.js';
import { createSignedInPerson, createTestTypedCode } from '../support/factories.js';
import { pdf } from '../support/sample-files.js';

let database: TestDatabase;
let app: TestApp;
let job: ImportJob;

// The file runs its own import job (a short interval); the app's would claim the same imports.
useDashboardApp((started) => ({ database, app } = started), { webhookWorker: false }, { withoutJobs: ['imports'] });
beforeAll(async () => {
  job = createImportJob({ db: database.db, logger: pino({ level: 'silent' }), siteUrl: app.config.siteUrl, intervalMs: 50 });
  job.start();
});
afterAll(async () => {
  await job?.stop();
});

async function upload(http: DashboardHttp, name: string, bytes: Buffer | string): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type: 'text/csv' }), name);
  return fetch(`${app.origin}/imports?_csrf=${encodeURIComponent(http.csrfToken)}`, { method: 'POST', body: form, headers: { cookie: http.cookie }, redirect: 'manual' });
}

/** Uploads, confirms and waits for the job; returns the import's page path. */
async function importFile(http: DashboardHttp, bytes: Buffer | string): Promise<string> {
  const uploaded = await upload(http, 'codes.csv', bytes);
  expect(uploaded.status, await uploaded.clone().text()).toBe(303);
  const path = uploaded.headers.get('location')!;
  await http.get(path);
  const confirmed = await http.post(`${path}/confirm`, {});
  expect(confirmed.status).toBe(303);
  await expect.poll(async () => (await (await http.get(path)).text()).includes('Result'), { timeout: 60_000 }).toBe(true);
  return path;
}

async function contents(accountId: string) {
  const rows = await database.db.selectFrom('qr_codes').select(['type', 'name', 'content', 'external_id']).where('account_id', '=', accountId).where('deleted_at', 'is', null).orderBy('name').execute();
  return rows.map((row) => ({ type: row.type, name: row.name, content: row.content, externalId: row.external_id }));
}

describe('export', () => {
  let owner: TestPerson;
  let http: DashboardHttp;

  beforeAll(async () => {
    owner = await createPerson(database.db);
    http = await dashboardHttp(app, owner);
  });

  it('importing the export of codes of all seventeen types recreates exactly their content', async () => {
    for (const type of CODE_TYPE_NAMES) {
      await createTestTypedCode(database.db, owner, { type, siteUrl: app.config.siteUrl, externalId: `ext-${type}` });
    }
    const before = await contents(owner.accountId);
    expect(before).toHaveLength(17);

    const exported = await http.get('/imports/export.csv');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('text/csv');
    const csv = Buffer.from(await exported.arrayBuffer());

    // The same account with its codes gone (files are the account's, so its file ids stay valid), then import.
    for (const code of await database.db.selectFrom('qr_codes').select('id').where('account_id', '=', owner.accountId).execute()) {
      await deleteQrCode(database.db, { accountId: owner.accountId, id: code.id });
    }
    expect(await contents(owner.accountId)).toHaveLength(0);
    await importFile(http, csv);
    expect(await contents(owner.accountId)).toEqual(before);

    // The export imported again: every row is skipped by its externalId, listed as skipped, not as an error.
    const again = await upload(http, 'again.csv', csv);
    const report = await (await http.get(again.headers.get('location')!)).text();
    expect(report).toContain('<strong>0</strong> codes will be created');
    expect(report).toContain('<strong>17</strong> rows will be skipped');
    expect(report).toContain('Skipped rows');
    expect(report).not.toContain('<h2>Errors</h2>');
  });

  it('exports a URL code\'s current destination after the API changed it', async () => {
    const { http: otherHttp, ...other } = await createSignedInPerson(database.db, app);
    const made = await createTestTypedCode(database.db, other, { name: 'Moved', type: 'URL', content: { url: 'https://example.com/before' }, siteUrl: app.config.siteUrl });
    // The API's PATCH changes the destination only, as it does for any URL code.
    await updateQrCode(database.db, { accountId: other.accountId, id: made.id, changes: { destinationUrl: 'https://example.com/after' }, actor: { kind: 'user', userId: other.userId } });
    const csv = await (await otherHttp.get('/imports/export.csv')).text();
    expect(csv).toContain('https://example.com/after');
    expect(csv).not.toContain('https://example.com/before');
  });

  it('each type\'s template imports cleanly', async () => {
    const { http: freshHttp, ...fresh } = await createSignedInPerson(database.db, app);
    for (const type of CODE_TYPE_NAMES) {
      // File types name the account's newest file of the right kind that a live code shows: give the account one.
      if (['PDF', 'MP3', 'IMAGES'].includes(type)) {
        await createTestTypedCode(database.db, fresh, { name: `Shown ${type}`, type, siteUrl: app.config.siteUrl });
      }
      const template = await freshHttp.get(`/imports/templates/${type}.csv`);
      expect(template.status, `${type}: ${await template.clone().text()}`).toBe(200);
      const bytes = Buffer.from(await template.arrayBuffer());
      const path = await importFile(freshHttp, bytes);
      const page = await (await freshHttp.get(path)).text();
      expect(page, type).toContain('1 code created, 0 skipped, 0 failed.');
    }
    expect(await contents(fresh.accountId)).toHaveLength(17 + 3);
  });

  it('writes one ZIP of images at a time per account: a second while the first streams gets 429, and one after it ends works', async () => {
    const { http: freshHttp, ...fresh } = await createSignedInPerson(database.db, app);
    const rows = Array.from({ length: 300 }, (_, i) => `URL,Code ${i},https://example.com/${i}`).join('\r\n');
    const path = await importFile(freshHttp, `type,name,url\r\n${rows}\r\n`);
    // 300 PNGs of 1024 px are megabytes: a reader that takes nothing holds the first ZIP mid-stream.
    const stalled = new AbortController();
    const first = await fetch(`${app.origin}${path}/qr-codes.zip?format=png`, { headers: { cookie: freshHttp.cookie }, signal: stalled.signal });
    expect(first.status).toBe(200);
    const second = await freshHttp.get(`${path}/qr-codes.zip?format=svg`);
    expect(second.status).toBe(429);
    expect(await second.text()).toContain('A download of QR images is already running');
    stalled.abort();
    await expect.poll(async () => (await freshHttp.get(`${path}/qr-codes.zip?format=svg`)).status, { timeout: 30_000 }).toBe(200);
  });

  it('the ZIP draws each code in the saved design its row named, and the others in the default look, in the formats and sizes a code\'s page offers', async () => {
    const { http: freshHttp, ...fresh } = await createSignedInPerson(database.db, app);
    await createDesignTemplate(database.db, { accountId: fresh.accountId, name: 'Brand Blue', design: { ...DEFAULT_DESIGN, foreground: { type: 'solid', color: '#1d4ed8' } } });
    const path = await importFile(freshHttp, 'type,name,url,design\r\nURL,Blue,https://example.com/b,brand blue\r\nURL,Plain,https://example.com/p,\r\n');
    const zip = await freshHttp.get(`${path}/qr-codes.zip?format=svg`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['00002-Blue.svg', '00003-Plain.svg']);
    expect(Buffer.from(files['00002-Blue.svg']!).toString()).toContain('#1d4ed8');
    expect(Buffer.from(files['00003-Plain.svg']!).toString()).not.toContain('#1d4ed8');

    const entries = async (query: string) => {
      const answer = await freshHttp.get(`${path}/qr-codes.zip?${query}`);
      expect(answer.status, query).toBe(200);
      return { name: /filename="([^"]+)"/.exec(answer.headers.get('content-disposition') ?? '')?.[1], files: unzipSync(new Uint8Array(await answer.arrayBuffer())) };
    };
    const pdfs = await entries('format=pdf');
    expect(Object.keys(pdfs.files)).toEqual(['00002-Blue.pdf', '00003-Plain.pdf']);
    expect(Buffer.from(pdfs.files['00003-Plain.pdf']!).subarray(0, 5).toString()).toBe('%PDF-');
    const print = await entries('format=pdf&size_mm=30&bleed_mm=3&crop_marks=on');
    expect(print.name).toMatch(/-pdf-30mm\.zip$/);
    expect(Buffer.from(print.files['00002-Blue.pdf']!).subarray(0, 5).toString()).toBe('%PDF-');
    const eps = await entries('format=eps&size_mm=30&bleed_mm=3');
    expect(eps.name).toMatch(/-eps-30mm\.zip$/);
    expect(Buffer.from(eps.files['00003-Plain.eps']!).subarray(0, 11).toString()).toBe('%!PS-Adobe-');
    // The PNG's width from its header: the size the link names (an old link without a size: 1024, as it was).
    const width = (png: Uint8Array) => Buffer.from(png).readUInt32BE(16);
    const large = await entries('format=png&size=2048');
    expect(large.name).toMatch(/-png-2048px\.zip$/);
    expect(width(large.files['00003-Plain.png']!)).toBe(2048);
    expect(width((await entries('format=png')).files['00003-Plain.png']!)).toBe(1024);
    expect((await freshHttp.get(`${path}/qr-codes.zip?format=png&size=1000`)).status).toBe(404);
    expect((await freshHttp.get(`${path}/qr-codes.zip?format=pdf&size_mm=0`)).status).toBe(400);
  });

  it('the template for all types has the export\'s columns and example rows of several types, and imports cleanly', async () => {
    const { http: freshHttp, ...fresh } = await createSignedInPerson(database.db, app);
    const template = await freshHttp.get('/imports/templates/all-types.csv');
    expect(template.status).toBe(200);
    const text = (await template.text()).replace(/^\uFEFF/, '');
    const exported = (await (await freshHttp.get('/imports/export.csv')).text()).replace(/^\uFEFF/, '');
    const header = text.split('\r\n')[0]!;
    expect(header).toBe(exported.split('\r\n')[0]);
    expect(header.startsWith('type,name,externalId,design,')).toBe(true);
    const path = await importFile(freshHttp, text);
    expect(await (await freshHttp.get(path)).text()).toContain('5 codes created, 0 skipped, 0 failed.');
    expect(new Set((await contents(fresh.accountId)).map((code) => code.type))).toEqual(new Set(['URL', 'VCARD_PLUS', 'BUSINESS', 'EVENT', 'WIFI']));
  });

  it('takes a ZIP of the CSV and its files through the upload form, and refuses an unsafe one on the page with its code, never a 500', async () => {
    const { http: freshHttp, ...fresh } = await createSignedInPerson(database.db, app);
    const zip = zipSync({ 'spring/codes.csv': strToU8('type,name,fileId,title\r\nPDF,Menu,menu.pdf,Spring menu\r\n'), 'spring/menu.pdf': pdf() });
    const path = await importFile(freshHttp, Buffer.from(zip));
    expect(await (await freshHttp.get(path)).text()).toContain('1 code created, 0 skipped, 0 failed.');
    const [made] = await contents(fresh.accountId);
    const file = await database.db.selectFrom('files').select(['kind', 'original_name']).where('id', '=', (made!.content as { fileId: string }).fileId).executeTakeFirstOrThrow();
    expect(file).toEqual({ kind: 'pdf', original_name: 'menu.pdf' });

    const evil = await upload(freshHttp, 'evil.zip', Buffer.from(zipSync({ 'codes.csv': strToU8('type,name\r\n'), '../../etc/cron.d/evil': strToU8('x') })));
    expect(evil.status).toBe(400);
    const page = await evil.text();
    expect(page).toContain('The ZIP has an entry named &quot;../../etc/cron.d/evil&quot;');
    expect(page).toContain('(code zip_unsafe_name)');
  });

  it('refuses a file it cannot read with a sentence on the upload page, never a 500', async () => {
    const refused = await upload(http, 'old.csv', Buffer.from('type,name,url\r\nURL,Caf\xe9,https://example.com\r\n', 'latin1'));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('not UTF-8');
    const empty = await upload(http, 'empty.csv', '');
    expect(empty.status).toBe(400);
  });

  it('refuses a file over 10 MB and a file with more than 10,000 rows, naming the limit', async () => {
    const big = await upload(http, 'big.csv', `type,name,text\n${'TEXT,A,'.padEnd(1024, 'x')}\n`.repeat(10 * 1024 + 1));
    expect(big.status).toBe(400);
    expect(await big.text()).toContain('larger than 10 MB');
    const many = await upload(http, 'many.csv', `type,name,url\n${'URL,A,https://example.com\n'.repeat(10_001)}`);
    expect(many.status).toBe(400);
    expect(await many.text()).toContain('The file has 10,001 rows; an import takes at most 10,000.');
  });

  it('refuses, before parsing, files shaped to make the parser build millions of records', async () => {
    // 10 MB of bare line breaks took minutes and gigabytes to parse; a row of millions of commas, hundreds of MB.
    const newlines = await upload(http, 'newlines.csv', `type,name
${'\n'.repeat(10 * 1024 * 1024 - 20)}`);
    expect(newlines.status).toBe(400);
    expect(await newlines.text()).toContain('The file has more than 50,000 lines');
    const commas = await upload(http, 'commas.csv', `type,name
${','.repeat(5 * 1024 * 1024)}`);
    expect(commas.status).toBe(400);
    expect(await commas.text()).toContain('Line 2 has more than 2,000 separators');
  });

  it('a cancelled import creates nothing and its rows are gone', async () => {
    const uploaded = await upload(http, 'cancel.csv', 'type,name,url\nURL,Never,https://example.com/never\n');
    const path = uploaded.headers.get('location')!;
    await http.get(path);
    expect((await http.post(`${path}/cancel`, {})).status).toBe(303);
    expect(await (await http.get(path)).text()).toContain('This import was cancelled; nothing was created.');
    expect((await http.post(`${path}/confirm`, {})).status).toBe(303);
    const id = path.split('/').pop()!;
    expect(await database.db.selectFrom('import_rows').select('line').where('import_id', '=', id).execute()).toEqual([]);
    expect((await database.db.selectFrom('imports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('cancelled');
  });

  it('another account\'s import is not found', async () => {
    const uploaded = await upload(http, 'one.csv', 'type,name,url\nURL,One,https://example.com/one\n');
    const path = uploaded.headers.get('location')!;
    const stranger = await dashboardHttp(app, await createPerson(database.db));
    expect((await stranger.get(path)).status).toBe(404);
    expect((await stranger.get(`${path}/codes.csv`)).status).toBe(404);
    expect((await stranger.post(`${path}/confirm`, {})).status).toBe(404);
  });
});

describe('checking imports at once', () => {
  /** An upload that sends its headers and the start of its file, then waits: its dry run holds the account's place. */
  function heldUpload(http: DashboardHttp) {
    const boundary = 'held-upload';
    const held = request(new URL(`/imports?_csrf=${encodeURIComponent(http.csrfToken)}`, app.origin), {
      method: 'POST',
      headers: { cookie: http.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const state: { status?: number; answered: Promise<IncomingMessage> } = {
      answered: new Promise<IncomingMessage>((resolve, reject) => held.on('response', resolve).on('error', reject)),
    };
    void state.answered.then((response) => (state.status = response.statusCode));
    held.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="codes.csv"\r\nContent-Type: text/csv\r\n\r\ntype,name,url\r\n`);
    return { state, finish: () => held.end(`URL,Held,https://example.com/held\r\n--${boundary}--\r\n`) };
  }
  const small = (name: string) => `type,name,url\nURL,${name},https://example.com/\n`;

  it('checks one upload of an account at a time: another answers 429 while the first is still arriving, and the first goes on', async () => {
    const { http } = await createSignedInPerson(database.db, app);
    await http.get('/imports');
    // Which of two requests on two connections the server takes first is not ours to choose: until the held one is
    // the one holding the place (the other answers 429 while it is unanswered), start it again.
    let held = heldUpload(http);
    await expect
      .poll(async () => {
        if (held.state.status !== undefined) held = heldUpload(http); // it lost the race and was refused itself
        const other = await upload(http, 'other.csv', small('Other'));
        return other.status === 429 && held.state.status === undefined;
      }, { timeout: 15_000 }) // each try is an upload or two: the default second lets a loaded CI machine make one
      .toBe(true);
    const stranger = await createSignedInPerson(database.db, app); // another account is not held up
    await stranger.http.get('/imports');
    expect((await upload(stranger.http, 'mine.csv', small('Mine'))).status).toBe(303);

    held.finish();
    expect((await held.state.answered).statusCode).toBe(303);
    expect((await upload(http, 'after.csv', small('After'))).status).toBe(303);
  });
});

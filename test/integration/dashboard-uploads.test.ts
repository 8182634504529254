import { readdir, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { pdf, png, storeSampleFile } from '../support/sample-files.js';
import type { TestApp } from '../support/test-app.js';

/**
 * Uploads through the dashboard's code forms (src/dashboard/shared/multipart.ts → storeFile): refusals shown at their
 * field, nothing left behind by a refused code or a broken upload, and limits from the configuration.
 */

const KB = 1024;
const MAX_FILE = 256 * KB;
const ACCOUNT_STORAGE = 1024 * KB;

let database: TestDatabase;
let app: TestApp;

// Without the jobs that run transactions of their own (imports, rollup, pruning): a test counts the open ones.
useDashboardApp((started) => ({ database, app } = started), { files: { maxFileBytes: MAX_FILE, accountStorageBytes: ACCOUNT_STORAGE } }, {
  withoutJobs: ['imports', 'rollup', 'pruning'],
});

async function signedIn(options: { plan?: 'free' | 'business' } = {}): Promise<{ person: TestPerson; http: DashboardHttp }> {
  const person = await createPerson(database.db, options);
  return { person, http: await dashboardHttp(app, person) };
}

/** The upload action of the type's New code form, with its CSRF token, as the page gives it. */
async function uploadActionOf(http: DashboardHttp, type: string): Promise<string> {
  const html = await (await http.get(`/codes/new?type=${type}`)).text();
  const action = /<form method="post" action="([^"]+)" enctype="multipart\/form-data"/.exec(html)?.[1];
  expect(action, 'a multipart form').toBeDefined();
  return action!.replace(/&amp;/g, '&');
}

type Part = [name: string, value: string] | [name: string, bytes: Buffer, fileName: string];

async function post(http: DashboardHttp, action: string, parts: Part[]): Promise<Response> {
  const body = new FormData();
  for (const part of parts) {
    if (part.length === 2) body.append(part[0], part[1]);
    else body.append(part[0], new Blob([new Uint8Array(part[1])]), part[2]);
  }
  return fetch(`${app.origin}${action}`, { method: 'POST', body, headers: { cookie: http.cookie, origin: app.origin }, redirect: 'manual' });
}

/** Every file row of the account, live or not, written completely or not. */
async function fileRows(accountId: string) {
  return database.db.selectFrom('files').select(['id', 'original_name', 'deleted_at', 'sha256']).where('account_id', '=', accountId).execute();
}

async function liveFiles(accountId: string) {
  return (await fileRows(accountId)).filter((row) => row.deleted_at === null);
}

const fieldError = (html: string, id: string) => new RegExp(`<small class="field-error" id="${id}-error">([^<]*)</small>`).exec(html)?.[1];

describe('a refused file', () => {
  it('of the wrong kind is named at its field with the reason, and nothing is stored or created', async () => {
    const { person, http } = await signedIn();
    const action = await uploadActionOf(http, 'PDF');
    const response = await post(http, action, [['name', 'Menu'], ['/content/title', 'Our menu'], ['upload:/content/fileId', png(), 'menu.pdf']]);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldError(html, 'new-code-content-fileId')).toMatch(/^menu\.pdf was not uploaded: .+/);
    expect(html).toContain('value="Our menu"');
    expect(await liveFiles(person.accountId)).toEqual([]);
    expect(await database.db.selectFrom('qr_codes').select('id').where('account_id', '=', person.accountId).execute()).toEqual([]);
  });

  it(`over FILE_MAX_MB (${MAX_FILE / KB} KB here) says how large a file may be`, async () => {
    const { person, http } = await signedIn();
    const big = Buffer.concat([pdf(), Buffer.alloc(MAX_FILE, 0x20)]);
    const response = await post(http, await uploadActionOf(http, 'PDF'), [['name', 'Menu'], ['upload:/content/fileId', big, 'huge.pdf']]);
    expect(response.status).toBe(400);
    expect(fieldError(await response.text(), 'new-code-content-fileId')).toBe('huge.pdf was not uploaded: This file is larger than 0.3 MB, the most one file may be.');
    expect((await fileRows(person.accountId)).filter((row) => row.deleted_at === null)).toEqual([]);
  });

  it('past the account’s storage says the storage is full', async () => {
    const { person, http } = await signedIn();
    await storeSampleFile(database.db, person.accountId, 'pdf', 'old.pdf', Buffer.concat([pdf(), Buffer.alloc(ACCOUNT_STORAGE - 10 * KB, 0x20)]));
    const response = await post(http, await uploadActionOf(http, 'PDF'), [['name', 'Menu'], ['upload:/content/fileId', Buffer.concat([pdf(), Buffer.alloc(20 * KB, 0x20)]), 'menu.pdf']]);
    expect(response.status).toBe(400);
    expect(fieldError(await response.text(), 'new-code-content-fileId')).toMatch(/^menu\.pdf was not uploaded: This upload would take the account past its 1 MB of file storage/);
    expect((await liveFiles(person.accountId)).map((f) => f.original_name)).toEqual(['old.pdf']);
  });
});

describe('a file sent with a refused code', () => {
  it('stays with the form as "Uploaded", so fixing the form creates the code without uploading again', async () => {
    const { person, http } = await signedIn();
    const first = await post(http, await uploadActionOf(http, 'PDF'), [['name', ''], ['upload:/content/fileId', pdf(), 'menu.pdf']]);
    expect(first.status).toBe(400);
    const html = await first.text();
    expect(fieldError(html, 'new-code-name')).toBe('The name must not be blank.');
    expect(html).toContain('Uploaded: menu.pdf. Choose another file to replace it.');
    const [stored] = await liveFiles(person.accountId);
    expect(html).toContain(`<input type="hidden" name="/content/fileId" value="${stored!.id}"/>`);
    const action = /<form method="post" action="([^"]+)" enctype/.exec(html)![1]!.replace(/&amp;/g, '&');
    const second = await post(http, action, [['name', 'Menu'], ['/content/fileId', stored!.id]]);
    expect(second.status).toBe(303);
    const code = await database.db.selectFrom('qr_codes').select('content').where('account_id', '=', person.accountId).executeTakeFirstOrThrow();
    expect(code.content).toEqual({ fileId: stored!.id });
    expect(await liveFiles(person.accountId)).toHaveLength(1);
  });

  it('is deleted when the plan’s limit refuses the code, and the page says why', async () => {
    const { person, http } = await signedIn();
    await database.db.updateTable('accounts').set({ code_limit: 0 }).where('id', '=', person.accountId).execute();
    const response = await post(http, await uploadActionOf(http, 'IMAGES'), [
      ['name', 'Gallery'],
      ['upload:/content/fileIds', png(), 'a.png'],
      ['upload:/content/fileIds', png(), 'b.png'],
    ]);
    expect(response.status).toBe(402);
    const html = await response.text();
    expect(html).toContain('allows 0 codes and all of them are in use');
    expect(html).not.toContain('Remove a.png');
    expect(await fileRows(person.accountId)).toHaveLength(2);
    expect(await liveFiles(person.accountId)).toEqual([]);
  });

  it('someone else’s file id sent as "already uploaded" is refused and its name not shown', async () => {
    const { http } = await signedIn();
    const { person: other } = await signedIn();
    const theirs = await storeSampleFile(database.db, other.accountId, 'pdf', 'secret-plans.pdf', pdf());
    const response = await post(http, await uploadActionOf(http, 'PDF'), [['name', 'Menu'], ['/content/fileId', theirs.id]]);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldError(html, 'new-code-content-fileId')).toBe('PDF file is not a file of this account (it may have been deleted).');
    expect(html).not.toContain('secret-plans');
  });
});

describe('the multipart reader', () => {
  it('answers a form with more files than a gallery takes with a 400 page, keeping none of them', async () => {
    const { person, http } = await signedIn();
    const parts: Part[] = [['name', 'Too many']];
    for (let i = 0; i < 32; i++) parts.push(['upload:/content/fileIds', png(), `${i}.png`]);
    const response = await post(http, await uploadActionOf(http, 'IMAGES'), parts);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Upload at most 31 files at once.');
    expect(await liveFiles(person.accountId)).toEqual([]);
  });

  it('answers an upload whose body ends early with a 400, and keeps nothing of it', async () => {
    const { person, http } = await signedIn();
    const action = await uploadActionOf(http, 'PDF');
    const { head, body } = multipartRequest(action, http.cookie, 100 * KB);
    // Half the body, then the client's side of the connection ends: Node answers 400 itself (the request can
    // never be complete), the handler storing the file is failed rather than left waiting.
    const answer = await rawExchange(head, body.subarray(0, body.length / 2), 'end');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    await expect.poll(async () => (await liveFiles(person.accountId)).length).toBe(0);
    expect((await fileRows(person.accountId)).filter((row) => row.sha256 === '')).toEqual([]);
  });

  it('lets go of an upload whose browser goes away mid-file: nothing is kept and the server keeps answering', async () => {
    const { person, http } = await signedIn();
    const action = await uploadActionOf(http, 'PDF');
    const { head, body } = multipartRequest(action, http.cookie, 200 * KB);
    await rawExchange(head, body.subarray(0, body.length / 2), 'destroy');
    // The transaction that was storing it is rolled back, so not even an unfinished row remains.
    await expect.poll(async () => (await fileRows(person.accountId)).length, { timeout: 10_000 }).toBe(0);
    expect((await http.get('/codes/new?type=PDF')).status).toBe(200);
    // And no transaction of this database is left open waiting for the rest of the file.
    const openTransactions = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'idle in transaction'`.execute(database.db)).rows[0]!.n;
    await expect.poll(openTransactions).toBe(0);
  });
});

describe('a slow upload', () => {
  it('holds no database transaction while its file is still arriving, and is stored once it has', async () => {
    const { person, http } = await signedIn();
    const action = await uploadActionOf(http, 'PDF');
    const { head, body } = multipartRequest(action, http.cookie, 200 * KB);
    const started = Date.now();
    const url = new URL(app.origin);
    const socket = net.connect(Number(url.port), url.hostname);
    const answer = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    // Most of the file, then the client pauses as a slow link would.
    socket.write(head);
    await new Promise<void>((resolve) => socket.write(body.subarray(0, body.length - 1000), () => resolve()));
    const transactions = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`.execute(database.db)).rows[0]!.n;
    // The server has read what was sent (the spool grows) and still holds no transaction for it.
    await expect.poll(() => spoolsSince(started)).toBeGreaterThan(0);
    expect(await transactions()).toBe(0);
    socket.write(body.subarray(body.length - 1000));
    expect(await answer).toMatch(/^HTTP\/1\.1 303 /);
    expect(await liveFiles(person.accountId)).toHaveLength(1);
  });
});

/** Uploads being received onto disk (src/files/spool.ts) that began after `since`. */
async function spoolsSince(since: number): Promise<number> {
  const names = (await readdir(tmpdir())).filter((name) => name.startsWith('qroute-upload-'));
  const times = await Promise.all(names.map(async (name) => (await stat(join(tmpdir(), name)).catch(() => undefined))?.mtimeMs ?? 0));
  return times.filter((time) => time >= since - 1000).length;
}

/** A PDF form's multipart request: the head (with the full Content-Length) and the body. */
function multipartRequest(action: string, cookie: string, fileBytes: number): { head: string; body: Buffer } {
  const boundary = 'qroute-test-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nMenu\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="upload:/content/fileId"; filename="menu.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    pdf(),
    Buffer.alloc(fileBytes, 0x20),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const url = new URL(app.origin);
  const head =
    `POST ${action} HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${app.origin}\r\nCookie: ${cookie}\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return { head, body };
}

/** Sends a request's head and part of its body over a raw socket, then ends or destroys the connection. */
function rawExchange(head: string, partialBody: Buffer, then: 'end' | 'destroy'): Promise<string> {
  const url = new URL(app.origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(head);
    socket.write(partialBody, () => {
      if (then === 'end') socket.end();
      else setImmediate(() => socket.destroy());
    });
  });
}

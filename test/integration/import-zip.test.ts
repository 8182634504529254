import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkImportZip } from '../../src/imports/check-import-zip.js';
import { MAX_ZIP_ENTRIES, MAX_ZIP_RATIO } from '../../src/imports/import-zip.js';
import { listImportRows } from '../../src/imports/import-rows.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createPerson, type TestPerson } from '../support/dashboard.js';
import { GENEROUS_FILE_LIMITS, mp3, pdf, png } from '../support/sample-files.js';

let database: TestDatabase;
let owner: TestPerson;
let dir: string;

beforeAll(async () => {
  [database, dir] = await Promise.all([createTestDatabase(), mkdtemp(join(tmpdir(), 'import-zip-test-'))]);
  owner = await createPerson(database.db);
});
afterAll(async () => {
  await Promise.all([database?.destroy(), rm(dir, { recursive: true, force: true })]);
});

let zips = 0;
/** Writes the ZIP and runs the dry run on it as the upload does; `patch` edits the bytes (to forge what fflate will not write). */
async function check(entries: Zippable, patch?: (bytes: Buffer) => void) {
  const bytes = Buffer.from(zipSync(entries));
  patch?.(bytes);
  const path = join(dir, `upload-${zips++}.zip`);
  await writeFile(path, bytes);
  return checkImportZip(database.db, { accountId: owner.accountId, userId: owner.userId, fileName: 'codes.zip', path, size: bytes.length, limits: GENEROUS_FILE_LIMITS });
}

async function storedFiles() {
  return database.db.selectFrom('files').select(['id', 'kind', 'original_name', 'size_bytes']).where('account_id', '=', owner.accountId).where('deleted_at', 'is', null).orderBy('original_name').execute();
}

/** Offsets of the central directory's entries (signature PK\1\2), where names, flags and sizes are read from. */
function centralEntries(bytes: Buffer): number[] {
  const offsets: number[] = [];
  for (let i = bytes.indexOf('PK\u0001\u0002', 0, 'latin1'); i !== -1; i = bytes.indexOf('PK\u0001\u0002', i + 4, 'latin1')) offsets.push(i);
  return offsets;
}

const csv = (text: string) => new TextEncoder().encode(text);

describe('a ZIP of a CSV and its files', () => {
  it('stores the files the rows name by file name, once each, and checks the rows with their ids', async () => {
    const before = (await storedFiles()).length;
    const result = await check({
      'codes.csv': csv(
        'type,name,externalId,fileId,fileIds,fullName,photoFileId\r\n' +
          'PDF,Menu,z-1,menu.pdf,,,\r\n' +
          'IMAGES,Gallery,z-2,,photos/a.png|photos/B.PNG,,\r\n' +
          'MP3,Song,z-3,song.mp3,,,\r\n' +
          'VCARD_PLUS,Ada,z-4,,,Ada Lovelace,photos/a.png\r\n' +
          'PDF,Menu again,z-5,MENU.pdf,,,\r\n',
      ),
      'menu.pdf': pdf(),
      'photos/a.png': png(),
      'photos/b.png': png(8, 8),
      'song.mp3': mp3(),
      // What macOS's Finder adds to every ZIP it makes: passed over, never stored.
      '__MACOSX/._menu.pdf': new Uint8Array([0, 5, 22, 7]),
      '.DS_Store': new Uint8Array([0, 0, 0, 1]),
    });
    expect(result).toMatchObject({ ok: true });
    const importId = (result as { importId: string }).importId;
    const rows = await listImportRows(database.db, importId, ['pending', 'invalid']);
    expect(rows.map((row) => [row.line, row.status, row.problems])).toEqual([
      [2, 'pending', []],
      [3, 'pending', []],
      [4, 'pending', []],
      [5, 'pending', []],
      [6, 'pending', []],
    ]);
    const files = await storedFiles();
    // menu.pdf once for two rows; a.png as a gallery image and as the photo, both of kind image: once.
    expect(files.length - before).toBe(4);
    const byName = new Map(files.map((file) => [file.original_name, file]));
    expect(byName.get('menu.pdf')).toMatchObject({ kind: 'pdf', size_bytes: pdf().length });
    expect(byName.get('song.mp3')).toMatchObject({ kind: 'audio' });
    const content = (line: number) => rows.find((row) => row.line === line)!.input.content as Record<string, unknown>;
    expect(content(2)).toEqual({ fileId: byName.get('menu.pdf')!.id });
    expect(content(6)).toEqual({ fileId: byName.get('menu.pdf')!.id });
    expect(content(3)).toEqual({ fileIds: [byName.get('a.png')!.id, byName.get('b.png')!.id] });
    expect(content(5)).toMatchObject({ photoFileId: byName.get('a.png')!.id });
  });

  it('refuses a file whose content is not of the kind its column takes, on every row naming it, with the store\'s code', async () => {
    const result = await check({
      'codes.csv': csv('type,name,fileId\r\nPDF,Fake,menu.pdf\r\nPDF,Missing,gone.pdf\r\nPDF,Fake again,menu.pdf\r\n'),
      'menu.pdf': csv('<html><script>alert(1)</script></html>'),
    });
    expect(result).toMatchObject({ ok: true });
    const rows = await listImportRows(database.db, (result as { importId: string }).importId, ['invalid']);
    const refusal = { field: 'fileId', value: 'menu.pdf', code: 'unsupported_type', message: '"menu.pdf" was not stored: This file must be a PDF; its content is an unrecognised format.' };
    expect(rows.map((row) => [row.line, row.problems])).toEqual([
      [2, [refusal]],
      [3, [{ field: 'fileId', value: 'gone.pdf', message: 'names no file in the ZIP (nor a file id: fil_…)' }]],
      [4, [refusal]],
    ]);
  });

  it('refuses an entry whose name climbs out of the folder, or is absolute, before storing anything', async () => {
    const before = (await storedFiles()).length;
    for (const name of ['../evil.pdf', 'photos/../../evil.pdf', '/etc/evil.pdf', 'C:/evil.pdf', '..\\evil.pdf']) {
      const result = await check({ 'codes.csv': csv('type,name,fileId\r\nPDF,Menu,menu.pdf\r\n'), 'menu.pdf': pdf(), [name]: pdf() });
      expect(result, name).toMatchObject({ ok: false, code: 'zip_unsafe_name' });
    }
    expect(await storedFiles()).toHaveLength(before);
  });

  it('refuses a ZIP bomb: an entry that unpacks to far more than it packs, or to more than its directory says', async () => {
    // 2 MB of zeros deflate to about 2 KB: a ratio of about 1,000.
    const bomb = await check({ 'codes.csv': csv('type,name,url\r\nURL,A,https://example.com\r\n'), 'zeros.pdf': new Uint8Array(2 * 1024 * 1024) });
    expect(bomb).toMatchObject({ ok: false, code: 'zip_ratio_too_high' });
    expect((bomb as { message: string }).message).toContain(`more than ${MAX_ZIP_RATIO} times its packed size`);

    // A directory that says the CSV is 10 bytes: the reader stops at the 11th, the bomb's other disguise.
    const liar = await check({ 'codes.csv': csv('type,name,url\r\nURL,A,https://example.com\r\n') }, (bytes) => {
      const [entry] = centralEntries(bytes);
      bytes.writeUInt32LE(10, entry! + 24);
    });
    expect(liar).toMatchObject({ ok: false, code: 'zip_unreadable' });
    expect((liar as { message: string }).message).toContain('too many bytes');
  });

  it('refuses too many entries, an encrypted entry, no CSV, two CSVs, and bytes that are no ZIP, each with its code', async () => {
    const many: Zippable = { 'codes.csv': csv('type,name\r\n') };
    for (let i = 0; i < MAX_ZIP_ENTRIES; i++) many[`f${i}.txt`] = new Uint8Array(0);
    expect(await check(many)).toMatchObject({ ok: false, code: 'zip_too_many_entries' });

    const encrypted = await check({ 'codes.csv': csv('type,name,url\r\nURL,A,https://example.com\r\n') }, (bytes) => {
      const [entry] = centralEntries(bytes);
      bytes.writeUInt16LE(bytes.readUInt16LE(entry! + 8) | 1, entry! + 8);
    });
    expect(encrypted).toMatchObject({ ok: false, code: 'zip_encrypted' });

    expect(await check({ 'menu.pdf': pdf() })).toMatchObject({ ok: false, code: 'zip_no_csv' });
    expect(await check({ 'a.csv': csv('type,name\r\n'), 'b/b.csv': csv('type,name\r\n') })).toMatchObject({ ok: false, code: 'zip_several_csvs' });
    expect(await check({ 'codes.csv': csv('type,name\r\n') }, (bytes) => bytes.fill(0, bytes.length - 22))).toMatchObject({ ok: false, code: 'zip_unreadable' });
  });
});

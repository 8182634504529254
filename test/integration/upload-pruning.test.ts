import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BrandingError, getBranding, setBrandLogo } from '../../src/accounts/branding.js';
import { createTypedCode } from '../../src/codes/typed-code.js';
import { updateTypedCode } from '../../src/codes/update-typed-code.js';
import type { Db } from '../../src/db/schema/index.js';
import { accountStorageUsed } from '../../src/files/file-records.js';
import { pruneUnreferencedFiles } from '../../src/files/prune-unreferenced.js';
import { checkImport } from '../../src/imports/check-import.js';
import { templateCsv } from '../../src/imports/templates.js';
import { pruneExpired } from '../../src/maintenance/prune.js';
import { type TestDatabase, waitsForLock } from '../support/database.js';
import { createPerson, dashboardHttp, useDashboardApp } from '../support/dashboard.js';
import { pdf, png, storeSampleFile } from '../support/sample-files.js';
import type { TestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;

// The test prunes by hand at the moments it chooses; the app's own pruning job (first run a minute after start)
// would race it for the files and the prune lock.
useDashboardApp((started) => ({ database, app } = started), {}, { withoutJobs: ['pruning'] });

const HOURS = 24;

/** The live files of the account, by id. */
async function liveFileIds(accountId: string): Promise<string[]> {
  const rows = await database.db.selectFrom('files').select('id').where('account_id', '=', accountId).where('deleted_at', 'is', null).orderBy('id').execute();
  return rows.map((row) => row.id);
}

it(`deletes uploads of a refused form once ${HOURS} h old, bytes and all, and never a file a code, a branding logo or an import names`, async () => {
  const person = await createPerson(database.db);
  const { accountId } = person;
  const http = await dashboardHttp(app, person);
  // The case: 31 images for a gallery of at most 30 are refused, and each was stored as it arrived.
  const html = await (await http.get('/codes/new?type=IMAGES')).text();
  const action = /<form method="post" action="([^"]+)" enctype="multipart\/form-data"/.exec(html)![1]!.replace(/&amp;/g, '&');
  const body = new FormData();
  body.append('name', 'Too many');
  for (let i = 0; i < 31; i++) body.append('upload:/content/fileIds', new Blob([new Uint8Array(png())]), `${i}.png`);
  const refused = await fetch(`${app.origin}${action}`, { method: 'POST', body, headers: { cookie: http.cookie, origin: app.origin }, redirect: 'manual' });
  expect(refused.status).toBe(400);
  const abandoned = await liveFileIds(accountId);
  expect(abandoned).toHaveLength(31);

  const actor = { kind: 'user' as const, userId: person.userId };
  const menu = await storeSampleFile(database.db, accountId, 'pdf', 'menu.pdf', pdf());
  const created = await createTypedCode(database.db, { accountId, name: 'Menu', type: 'PDF', content: { fileId: menu.id }, actor, siteUrl: app.origin });
  expect(created.ok).toBe(true);
  const photo = await storeSampleFile(database.db, accountId, 'image', 'photo.png', png());
  const gallery = await createTypedCode(database.db, { accountId, name: 'Gallery', type: 'IMAGES', content: { fileIds: [photo.id] }, actor, siteUrl: app.origin });
  expect(gallery.ok).toBe(true);
  const logo = await storeSampleFile(database.db, accountId, 'logo', 'logo.png', png());
  await setBrandLogo(database.db, accountId, logo.id);
  // An import checked but not yet confirmed names its files by id, a gallery's joined by |.
  const [first, second] = [await storeSampleFile(database.db, accountId, 'image', 'a.png', png()), await storeSampleFile(database.db, accountId, 'image', 'b.png', png())];
  const checked = await checkImport(database.db, { accountId, userId: person.userId, fileName: 'g.csv', bytes: Buffer.from(`type,name,fileIds\nIMAGES,Imported,${first!.id}|${second!.id}\n`) });
  expect(checked.ok).toBe(true);
  const referenced = [menu.id, photo.id, logo.id, first!.id, second!.id];

  // Everything a day and an hour old, except one unreferenced upload of 23 hours.
  await sql`update files set created_at = now() - interval '25 hours' where account_id = ${accountId}`.execute(database.db);
  const recent = await storeSampleFile(database.db, accountId, 'pdf', 'recent.pdf', pdf());
  await sql`update files set created_at = now() - interval '23 hours' where id = ${recent.id}`.execute(database.db);
  const usedBefore = await accountStorageUsed(database.db, accountId);

  const counts = await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: undefined, unreferencedUploadHours: HOURS }, 10);
  expect(counts?.unreferencedFiles).toBe(31);
  expect(await liveFileIds(accountId)).toEqual([...referenced, recent.id].sort());
  const chunksLeft = await database.db.selectFrom('file_chunks').select('file_id').where('file_id', 'in', abandoned).execute();
  expect(chunksLeft).toEqual([]);
  expect(await accountStorageUsed(database.db, accountId)).toBe(usedBefore - 31 * png().length);
  // Referenced files still serve; a second run finds nothing more.
  expect((await fetch(`${app.origin}/files/${menu.id}`)).status).toBe(200);
  expect((await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: undefined, unreferencedUploadHours: HOURS }))?.unreferencedFiles).toBe(0);
});

/** A live PDF or logo of the account that nothing names yet, older than the prune's age. */
async function oldUpload(accountId: string, kind: 'pdf' | 'logo'): Promise<string> {
  const file = kind === 'pdf' ? await storeSampleFile(database.db, accountId, 'pdf', 'menu.pdf', pdf()) : await storeSampleFile(database.db, accountId, 'logo', 'logo.png', png());
  await sql`update files set created_at = now() - interval '25 hours' where id = ${file.id}`.execute(database.db);
  return file.id;
}

async function isLive(fileId: string): Promise<boolean> {
  const row = await database.db.selectFrom('files').select('deleted_at').where('id', '=', fileId).executeTakeFirstOrThrow();
  return row.deleted_at === null;
}

/**
 * Each way of storing a reference to a file, run inside the caller's transaction `trx`: 'saved' when it stored
 * the reference, 'refused' when it said the file is not available. `named` answers whether the stored state
 * (after commit) names the file.
 */
const SAVES: { name: string; kind: 'pdf' | 'logo'; save(trx: Db, accountId: string, userId: string, fileId: string): Promise<'saved' | 'refused'>; named(accountId: string, fileId: string): Promise<boolean> }[] = [
  {
    name: 'creating a code',
    kind: 'pdf',
    async save(trx, accountId, userId, fileId) {
      const made = await createTypedCode(trx, { accountId, name: 'Menu', type: 'PDF', content: { fileId }, actor: { kind: 'user', userId }, siteUrl: app.origin });
      if (!made.ok) expect(made.problems).toEqual([{ path: '/content/fileId', message: 'is not a file of this account (it may have been deleted)' }]);
      return made.ok ? 'saved' : 'refused';
    },
    named: namedByACode,
  },
  {
    name: 'editing a code',
    kind: 'pdf',
    async save(trx, accountId, userId, fileId) {
      // A PDF code that names another file, edited to name this one.
      const other = (await storeSampleFile(database.db, accountId, 'pdf', 'old.pdf', pdf())).id;
      const pdfCode = await createTypedCode(database.db, { accountId, name: 'Menu', type: 'PDF', content: { fileId: other }, actor: { kind: 'user', userId }, siteUrl: app.origin });
      if (!pdfCode.ok) throw new Error(JSON.stringify(pdfCode.problems));
      const edited = await updateTypedCode(trx, { accountId, id: pdfCode.code.id, name: 'Menu', content: { fileId }, actor: { kind: 'user', userId } });
      if (!edited.ok) expect(edited.problems).toEqual([{ path: '/content/fileId', message: 'is not a file of this account (it may have been deleted)' }]);
      return edited.ok ? 'saved' : 'refused';
    },
    named: namedByACode,
  },
  {
    name: 'setting the branding logo',
    kind: 'logo',
    async save(trx, accountId, _userId, fileId) {
      try {
        await setBrandLogo(trx, accountId, fileId);
        return 'saved';
      } catch (error) {
        if (!(error instanceof BrandingError)) throw error;
        expect(error.message).toBe('This logo file is not available; upload it again.');
        return 'refused';
      }
    },
    named: async (accountId, fileId) => (await getBranding(database.db, accountId)).logoFileId === fileId,
  },
];

async function namedByACode(accountId: string, fileId: string): Promise<boolean> {
  const row = await database.db.selectFrom('qr_codes').select('id').where('account_id', '=', accountId).where(sql<string>`content::text`, 'like', `%${fileId}%`).executeTakeFirst();
  return row !== undefined;
}

describe('a save and the prune racing for one file: never a reference to a deleted file', () => {
  for (const way of SAVES) {
    it(`${way.name} that holds its file lock first keeps the file; the prune passes it over`, async () => {
      const person = await createPerson(database.db);
      const fileId = await oldUpload(person.accountId, way.kind);
      const outcome = await database.db.transaction().execute(async (trx) => {
        const saved = await way.save(trx, person.accountId, person.userId, fileId);
        // The reference is stored but not committed: the prune, on its own connection, sees none yet.
        await pruneUnreferencedFiles(database.db, HOURS, 10);
        return saved;
      });
      expect(outcome).toBe('saved');
      expect(await way.named(person.accountId, fileId)).toBe(true);
      expect(await isLive(fileId)).toBe(true);
      const chunks = await database.db.selectFrom('file_chunks').select('file_id').where('file_id', '=', fileId).execute();
      expect(chunks.length).toBeGreaterThan(0);
      // Committed, the reference is what the next run sees.
      await pruneUnreferencedFiles(database.db, HOURS, 10);
      expect(await isLive(fileId)).toBe(true);
    });

    it(`${way.name} after the prune locked the file waits for it, then refuses: the file was deleted`, async () => {
      const person = await createPerson(database.db);
      const fileId = await oldUpload(person.accountId, way.kind);
      // The prune is stopped right after locking its candidates: its next statement (the references) reads
      // import_rows, which this transaction holds exclusively until released.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let blocked!: () => void;
      const blocking = new Promise<void>((resolve) => (blocked = resolve));
      const blocker = database.db.transaction().execute(async (trx) => {
        await sql`lock table import_rows in access exclusive mode`.execute(trx);
        blocked();
        await released;
      });
      await blocking;
      const pruning = pruneUnreferencedFiles(database.db, HOURS, 10);
      await expect.poll(() => waitsForLock(database.db, { queryLike: '%regexp_matches%' }), { timeout: 5_000 }).toBe(true);

      let saveReturned = false;
      let savePid = -1;
      let pruneDone!: () => void;
      const pruned = new Promise<void>((resolve) => (pruneDone = resolve));
      const saving = database.db.transaction().execute(async (trx) => {
        savePid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
        const outcome = await way.save(trx, person.accountId, person.userId, fileId);
        saveReturned = true;
        // Whatever it stored stays uncommitted until the prune has finished.
        await pruned;
        return outcome;
      });
      // The save waits for the prune's lock (a save that took none would have returned already).
      await expect.poll(async () => saveReturned || (savePid !== -1 && (await waitsForLock(database.db, { pid: savePid }))), { timeout: 5_000 }).toBe(true);
      release();
      await blocker;
      const count = await pruning;
      pruneDone();
      const outcome = await saving;

      expect(count).toBe(1);
      expect(await isLive(fileId)).toBe(false);
      expect(outcome).toBe('refused');
      expect(await way.named(person.accountId, fileId)).toBe(false);
    });
  }

  it('a checked import names only files that were live when its rows were stored', async () => {
    const person = await createPerson(database.db);
    const fileId = await oldUpload(person.accountId, 'pdf');
    await database.db.transaction().execute(async (trx) => {
      const checked = await checkImport(trx, { accountId: person.accountId, userId: person.userId, fileName: 'm.csv', bytes: Buffer.from(`type,name,fileId\nPDF,Menu,${fileId}\n`) });
      expect(checked.ok).toBe(true);
      await pruneUnreferencedFiles(database.db, HOURS, 10);
    });
    expect(await isLive(fileId)).toBe(true);
  });
});

it('the import template names a file a code shows, never the newest orphan upload', async () => {
  const person = await createPerson(database.db);
  expect(await templateCsv(database.db, person.accountId, 'PDF')).toContain('fil_PUT_AN_UPLOADED_FILE_ID_HERE');
  const shown = await storeSampleFile(database.db, person.accountId, 'pdf', 'menu.pdf', pdf());
  const made = await createTypedCode(database.db, { accountId: person.accountId, name: 'Menu', type: 'PDF', content: { fileId: shown.id }, actor: { kind: 'user', userId: person.userId }, siteUrl: app.origin });
  expect(made.ok).toBe(true);
  const orphan = await storeSampleFile(database.db, person.accountId, 'pdf', 'refused.pdf', pdf());
  const csv = await templateCsv(database.db, person.accountId, 'PDF');
  expect(csv).toContain(shown.id);
  expect(csv).not.toContain(orphan.id);
});

it('a file found named is marked, so later runs pass it over; one named by nothing is still pruned', async () => {
  const person = await createPerson(database.db);
  const named = await oldUpload(person.accountId, 'pdf');
  const made = await createTypedCode(database.db, { accountId: person.accountId, name: 'Menu', type: 'PDF', content: { fileId: named }, actor: { kind: 'user', userId: person.userId }, siteUrl: app.origin });
  expect(made.ok).toBe(true);
  await pruneUnreferencedFiles(database.db, HOURS, 10);
  const marked = await database.db.selectFrom('files').select('referenced_at').where('id', '=', named).executeTakeFirstOrThrow();
  expect(marked.referenced_at).not.toBeNull();
  // A later run takes only unmarked files as candidates; an orphan of the same account is still deleted.
  const orphan = await oldUpload(person.accountId, 'pdf');
  expect(await pruneUnreferencedFiles(database.db, HOURS, 10)).toBe(1);
  expect(await isLive(orphan)).toBe(false);
  expect(await isLive(named)).toBe(true);
});

it('an edit that takes a file off its code waits for a save naming that file, and then keeps it', async () => {
  const person = await createPerson(database.db);
  const actor = { kind: 'user' as const, userId: person.userId };
  const shared = (await storeSampleFile(database.db, person.accountId, 'pdf', 'menu.pdf', pdf())).id;
  const other = (await storeSampleFile(database.db, person.accountId, 'pdf', 'other.pdf', pdf())).id;
  const first = await createTypedCode(database.db, { accountId: person.accountId, name: 'First', type: 'PDF', content: { fileId: shared }, actor, siteUrl: app.origin });
  if (!first.ok) throw new Error(JSON.stringify(first.problems));
  let editDone = false;
  let editing: Promise<unknown> | undefined;
  await database.db.transaction().execute(async (trx) => {
    // A second code names the file, not yet committed, while the first code's edit lets go of it.
    const second = await createTypedCode(trx, { accountId: person.accountId, name: 'Second', type: 'PDF', content: { fileId: shared }, actor, siteUrl: app.origin });
    expect(second.ok).toBe(true);
    editing = updateTypedCode(database.db, { accountId: person.accountId, id: first.code.id, name: 'First', content: { fileId: other }, actor }).then(() => (editDone = true));
    // The edit waits for this save's lock (one that took none would have finished already).
    await expect.poll(async () => editDone || (await waitsForLock(database.db, { queryLike: '%for update%' })), { timeout: 5_000 }).toBe(true);
  });
  await editing;
  expect(await isLive(shared)).toBe(true);
  expect(await namedByACode(person.accountId, shared)).toBe(true);
});

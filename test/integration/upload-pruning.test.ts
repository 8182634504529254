import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setBrandLogo } from '../../src/accounts/branding.js';
import { createTypedCode } from '../../src/codes/typed-code.js';
import { accountStorageUsed } from '../../src/files/file-records.js';
import { checkImport } from '../../src/imports/check-import.js';
import { pruneExpired } from '../../src/maintenance/prune.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, startDashboardApp } from '../support/dashboard.js';
import { pdf, png, storeSampleFile } from '../support/sample-files.js';
import type { TestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startDashboardApp(database);
});
afterAll(async () => {
  await app?.close();
  await database?.destroy();
});

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

import { sql } from 'kysely';
import type { Db, Transaction } from '../db/schema/index.js';

/** The default of UNREFERENCED_UPLOAD_HOURS: a day to come back to a refused form. */
export const UNREFERENCED_UPLOAD_HOURS = 24;

/**
 * Deletes uploads nothing refers to once they are `olderThanHours` old: files stored with a form that was then
 * refused (a 31-image gallery, a bad field) and never sent again, or left by a crash between storing and saving.
 * A refused form holds its uploads ("Uploaded: …") so they are not sent twice; the age is how long a person may
 * take to come back to it. Until then they count against the account's storage; after it they go, bytes and all,
 * like deleteFile (the row stays, marked deleted).
 *
 * Referred to, and so never deleted, is any file whose id appears in the text of a code's content or design (live
 * or deleted code: a row that names it keeps it), a design template, an import's rows (checked or queued imports
 * name files by id, lists joined by `|`), or an account's branding logo: any id-shaped text in those rows counts,
 * so the match can only err towards keeping a file. A file found referenced is marked (`referenced_at`) and never
 * looked at again, so a run reads only the accounts of files that came of age since the last one, not every file
 * ever kept. The mark stays if the reference goes later (an import pruned unconfirmed, say): such a file is kept,
 * the safe side; files a code edit or delete lets go are deleted by that edit (releaseReplacedFiles), not here.
 * Works through old unmarked live files by id, `batchSize` per transaction; returns how many were deleted.
 */
export async function pruneUnreferencedFiles(db: Db, olderThanHours: number, batchSize: number): Promise<number> {
  let after = '';
  let pruned = 0;
  for (;;) {
    const batch = await db.transaction().execute((trx) => pruneBatch(trx, olderThanHours, batchSize, after));
    pruned += batch.pruned;
    if (batch.lastId === undefined) return pruned;
    after = batch.lastId;
  }
}

/**
 * One batch, in one transaction, in two statements; why two. A save that names a file (createTypedCode,
 * updateTypedCode, the import job, setBrandLogo, checkImport's rows) checks the file is live inside its own
 * transaction with SELECT … FOR KEY SHARE on the file's row (checkFileReferences, lockLiveFile), and holds that
 * lock until its reference commits. Here the candidates are first locked FOR UPDATE, which conflicts with FOR KEY
 * SHARE, SKIP LOCKED: a file a save is holding is passed over this run (its reference will be committed by the
 * next), and a save that comes after our lock waits for our commit. Only then are references computed, in a new
 * statement: under READ COMMITTED a statement's snapshot is taken when it starts, so it sees every save that
 * committed before our lock (no save can commit a reference to a locked candidate after it), and the candidates
 * still unreferenced are marked deleted in that statement, under the same lock. A waiting save then gets the row
 * as we left it, re-checks `deleted_at is null` (PostgreSQL re-evaluates a locking read's condition on the newest
 * row version) and refuses with its usual "may have been deleted" problem. So either the save sees the file
 * deleted and refuses, or the prune sees the reference and keeps the file; never a reference to a deleted file.
 * The single statement this replaces decided from one snapshot and took no lock a save would wait for (an UPDATE
 * takes FOR NO KEY UPDATE, which does not conflict with FOR KEY SHARE), so a reference committed between its
 * snapshot and its update pointed at a file whose chunks were gone.
 */
async function pruneBatch(trx: Transaction, olderThanHours: number, batchSize: number, after: string): Promise<{ lastId?: string; pruned: number }> {
  const { rows: candidates } = await sql<{ id: string }>`
    select id from files
    where deleted_at is null and referenced_at is null and id > ${after}
      and created_at < now() - make_interval(hours => ${olderThanHours})
    order by id limit ${batchSize}
    for update skip locked`.execute(trx);
  if (candidates.length === 0) return { pruned: 0 };
  const ids = candidates.map((row) => row.id);
  // The ids every row of the batch's accounts names are gathered once per batch (one pass over those rows),
  // not looked for file by file: that would read an account's codes once per file.
  const { rows } = await sql<{ pruned: number }>`
    with batch as (
      select id, account_id from files where id = any(${ids}::text[])
    ), owners as (
      select distinct account_id from batch
    ), texts as (
      select qr_codes.content::text as body from qr_codes join owners using (account_id)
      union all select qr_codes.design::text from qr_codes join owners using (account_id) where qr_codes.design is not null
      union all select design_templates.design::text from design_templates join owners using (account_id)
      union all select import_rows.input::text from import_rows join imports on imports.id = import_rows.import_id
        join owners on owners.account_id = imports.account_id
      union all select accounts.brand_logo_file_id from accounts join owners on owners.account_id = accounts.id
    ), referenced as (
      select distinct found[1] as id from texts cross join lateral regexp_matches(texts.body, ${FILE_ID_ANYWHERE}, 'g') as found
    ), kept as (
      update files set referenced_at = now()
      where id in (select id from batch) and id in (select id from referenced where id is not null)
    ), marked as (
      update files set deleted_at = now()
      where id in (select id from batch) and id not in (select id from referenced where id is not null) and deleted_at is null
      returning id
    ), chunks as (
      delete from file_chunks where file_id in (select id from marked)
    )
    select (select count(*) from marked)::int as pruned`.execute(trx);
  return { lastId: ids[ids.length - 1], pruned: rows[0]!.pruned };
}

/**
 * A file id wherever it stands in a row's text (a JSON string, a `|`-joined import cell): `fil_` and 26 characters
 * of the ids' alphabet (src/ids.ts), upper-case letters and digits taken whole, so it finds every id and at worst a
 * longer run's first 26 characters, which can only keep a file.
 */
const FILE_ID_ANYWHERE = 'fil_[0-9A-Z]{26}';

import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';

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
 * so the match can only err towards keeping a file. Works through old live files by id, `batchSize` per statement;
 * returns how many were deleted.
 */
export async function pruneUnreferencedFiles(db: Db, olderThanHours: number, batchSize: number): Promise<number> {
  let after = '';
  let pruned = 0;
  for (;;) {
    // The ids every row of the batch's accounts names are gathered once per batch (one pass over those rows),
    // not looked for file by file: that would read an account's codes once per file, every run.
    const { rows } = await sql<{ last_id: string | null; pruned: number }>`
      with batch as (
        select id, account_id from files
        where deleted_at is null and id > ${after} and created_at < now() - make_interval(hours => ${olderThanHours})
        order by id limit ${batchSize}
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
      ), marked as (
        update files set deleted_at = now()
        where id in (select id from batch where id not in (select id from referenced where id is not null)) and deleted_at is null
        returning id
      ), chunks as (
        delete from file_chunks where file_id in (select id from marked)
      )
      select (select max(id) from batch) as last_id, (select count(*) from marked)::int as pruned`.execute(db);
    const { last_id: lastId, pruned: count } = rows[0]!;
    pruned += count;
    if (lastId === null) return pruned;
    after = lastId;
  }
}

/**
 * A file id wherever it stands in a row's text (a JSON string, a `|`-joined import cell): `fil_` and 26 characters
 * of the ids' alphabet (src/ids.ts), upper-case letters and digits taken whole, so it finds every id and at worst a
 * longer run's first 26 characters, which can only keep a file.
 */
const FILE_ID_ANYWHERE = 'fil_[0-9A-Z]{26}';

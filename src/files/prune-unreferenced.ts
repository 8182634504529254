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
 * name files by id, lists joined by `|`), or an account's branding logo. The match is a substring of the row's
 * text, so it can only err towards keeping a file. Works through old live files by id, `batchSize` per statement;
 * returns how many were deleted.
 */
export async function pruneUnreferencedFiles(db: Db, olderThanHours: number, batchSize: number): Promise<number> {
  let after = '';
  let pruned = 0;
  for (;;) {
    const { rows } = await sql<{ last_id: string | null; pruned: number }>`
      with batch as (
        select id, account_id from files
        where deleted_at is null and id > ${after} and created_at < now() - make_interval(hours => ${olderThanHours})
        order by id limit ${batchSize}
      ), unreferenced as (
        select batch.id from batch
        where not exists (select 1 from accounts where accounts.brand_logo_file_id = batch.id)
          and not exists (
            select 1 from qr_codes where qr_codes.account_id = batch.account_id
              and (qr_codes.content::text like '%' || batch.id || '%' or qr_codes.design::text like '%' || batch.id || '%'))
          and not exists (
            select 1 from design_templates where design_templates.account_id = batch.account_id
              and design_templates.design::text like '%' || batch.id || '%')
          and not exists (
            select 1 from import_rows join imports on imports.id = import_rows.import_id
            where imports.account_id = batch.account_id and import_rows.input::text like '%' || batch.id || '%')
      ), marked as (
        update files set deleted_at = now() where id in (select id from unreferenced) and deleted_at is null returning id
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

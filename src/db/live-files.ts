import type { ExpressionBuilder } from 'kysely';
import type { DatabaseSchema, Db } from './schema/index.js';

// A deleted file keeps its row (its bytes go at once) so a page that still names it can tell "deleted" from "never
// existed"; everything that stores, shows or counts an account's files means its live ones. The predicate is
// written `deleted_at is null` as the partial index on live files is (files_account_live, which the storage sum
// reads): PostgreSQL uses such an index only for a query whose condition implies the index's own.

/** A file not deleted, of any account. */
function isLiveFile(eb: ExpressionBuilder<DatabaseSchema, 'files'>) {
  return eb('files.deleted_at', 'is', null);
}

/** Live files of every account: for a file looked up by its id alone (a just-written upload, a card's photo). */
export function liveFiles(db: Db) {
  return db.selectFrom('files').where(isLiveFile);
}

/** A live file of the account; for updates and subqueries (a plain select starts from liveFilesOf). */
export function isLiveFileOf(accountId: string) {
  return (eb: ExpressionBuilder<DatabaseSchema, 'files'>) => eb.and([eb('files.account_id', '=', accountId), isLiveFile(eb)]);
}

/**
 * The account's live files, to select from. A file still being written is among them, with an empty sha256:
 * queries that need its bytes (a code's content naming it) add `sha256 != ''` themselves.
 */
export function liveFilesOf(db: Db, accountId: string) {
  return db.selectFrom('files').where(isLiveFileOf(accountId));
}

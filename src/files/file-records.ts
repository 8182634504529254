import { sql } from 'kysely';
import { liveCodesOf } from '../db/live-codes.js';
import { isLiveFileOf, liveFiles, liveFilesOf } from '../db/live-files.js';
import type { Db } from '../db/schema/index.js';
import { idPattern } from '../ids.js';
import { inTransaction } from '../db/transaction.js';

const FILE_ID = idPattern('fil');

export interface StoredFile {
  id: string;
  accountId: string;
  kind: string;
  mediaType: string;
  originalName: string;
  sizeBytes: number;
  chunkSize: number;
  sha256: string;
  createdAt: Date;
}

/** A live file by id, of `accountId` when given; undefined for a deleted, unknown or malformed id. */
export async function findLiveFile(db: Db, fileId: string, accountId?: string, options: { lock?: 'key share' | 'update' } = {}): Promise<StoredFile | undefined> {
  if (!FILE_ID.test(fileId)) return undefined;
  const files = accountId === undefined ? liveFiles(db) : liveFilesOf(db, accountId);
  let query = files.selectAll().where('id', '=', fileId);
  // Until the caller's transaction ends. FOR KEY SHARE is what a save that stores a reference to the file holds,
  // so that nothing deleting files can delete it before the reference commits; FOR UPDATE what a deletion takes
  // before it checks for references (src/files/prune-unreferenced.ts says why both).
  if (options.lock === 'key share') query = query.forKeyShare();
  if (options.lock === 'update') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (row === undefined || row.sha256 === '') return undefined;
  return {
    id: row.id,
    accountId: row.account_id,
    kind: row.kind,
    mediaType: row.media_type,
    originalName: row.original_name,
    sizeBytes: Number(row.size_bytes),
    chunkSize: row.chunk_size,
    sha256: row.sha256,
    createdAt: row.created_at,
  };
}

/** Bytes of the account's live files: what ACCOUNT_STORAGE_MB limits. */
export async function accountStorageUsed(db: Db, accountId: string): Promise<number> {
  const row = await liveFilesOf(db, accountId).select(sql<string>`coalesce(sum(size_bytes), 0)`.as('used')).executeTakeFirstOrThrow();
  return Number(row.used);
}

/**
 * Whether a live code of the account names the file in its content. File ids are [A-Za-z0-9_-] (the schema
 * checks), so the only wildcard one can hold is _, which matching any character can only keep a file, never delete
 * one in use. Call it after locking the file FOR UPDATE (findLiveFile's 'update' lock), in a statement of its own:
 * a save naming the file holds FOR KEY SHARE until it commits, so this then sees it (src/files/prune-unreferenced.ts).
 */
export async function namedByLiveCode(db: Db, accountId: string, fileId: string): Promise<boolean> {
  const code = await liveCodesOf(db, accountId)
    .select('id')
    .where(sql<string>`content::text`, 'like', `%"${fileId}"%`)
    .limit(1)
    .executeTakeFirst();
  return code !== undefined;
}

/**
 * Deletes a file of the account: its bytes go at once (freeing the account's storage), the row stays marked
 * deleted so a page that still names it can tell "deleted" from "never existed". False when there was none.
 */
export async function deleteFile(db: Db, accountId: string, fileId: string): Promise<boolean> {
  if (!FILE_ID.test(fileId)) return false;
  return inTransaction(db, async (trx) => {
    const marked = await trx
      .updateTable('files')
      .set({ deleted_at: sql<Date>`now()` })
      .where('id', '=', fileId)
      .where(isLiveFileOf(accountId))
      .returning('id')
      .executeTakeFirst();
    if (marked === undefined) return false;
    await trx.deleteFrom('file_chunks').where('file_id', '=', fileId).execute();
    return true;
  });
}

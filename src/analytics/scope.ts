import { sql } from 'kysely';
import { isCodeId } from '../codes/qr-code-row.js';
import type { Db } from '../db/schema/index.js';
import { errors } from '../errors.js';

/**
 * Whose scans: one code of the account, or the whole account. An account's analytics include its deleted codes:
 * their scans happened, and the account's history (and the rollup kept per account) does not change when a code
 * is deleted later.
 */
export interface AnalyticsScope {
  accountId: string;
  codeId?: string;
}

/** 404 `not_found` unless the code exists, is not deleted and belongs to the account (as the API answers). */
export async function assertScope(db: Db, scope: AnalyticsScope): Promise<void> {
  if (scope.codeId === undefined) return;
  const found = isCodeId(scope.codeId)
    ? await db
        .selectFrom('qr_codes')
        .select('id')
        .where('id', '=', scope.codeId)
        .where('account_id', '=', scope.accountId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
    : undefined;
  if (!found) throw errors.notFound();
}

/**
 * Runs `read` in one snapshot (a read-only REPEATABLE READ transaction, or the caller's transaction): the rollup
 * and the watermark it was folded to must be read together, or a fold committing in between would count the
 * scans it folded twice (once in the rollup, once in the raw tail).
 */
export async function inOneSnapshot<T>(db: Db, read: (db: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return read(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
}

/** Scans above this id are not in the rollup yet; queries read them from `scans`. */
export async function foldedThroughId(db: Db): Promise<number> {
  const { rows } = await sql<{ id: number }>`select folded_through_id as id from scan_rollup_state`.execute(db);
  return rows[0]?.id ?? 0;
}

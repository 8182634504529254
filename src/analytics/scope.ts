import { sql } from 'kysely';
import { isCodeId } from '../codes/qr-code-row.js';
import { liveCodesOf } from '../db/live-codes.js';
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
    ? await liveCodesOf(db, scope.accountId).select('id').where('id', '=', scope.codeId).executeTakeFirst()
    : undefined;
  if (!found) throw errors.notFound();
}

// Analytics read through inOneSnapshot (src/db/snapshot.ts): the rollup and the watermark it was folded to must be
// read together, or a fold committing in between would count the scans it folded twice (rollup and raw tail).
export { inOneSnapshot } from '../db/snapshot.js';

/** Scans above this id are not in the rollup yet; queries read them from `scans`. */
export async function foldedThroughId(db: Db): Promise<number> {
  const { rows } = await sql<{ id: number }>`select folded_through_id as id from scan_rollup_state`.execute(db);
  return rows[0]?.id ?? 0;
}

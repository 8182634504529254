import type { ExpressionBuilder } from 'kysely';
import type { DatabaseSchema, Db } from './schema/index.js';

// A deleted code keeps its row (its slug is never handed out again, its scans stay counted), so every read or
// change of "the account's codes" means its live ones. These name that filter once, so no query can keep the
// account half and forget the other. The predicate is written `deleted_at is null` as the partial indexes on live
// codes are (qr_codes_account_live, qr_codes_account_state, qr_codes_name_trgm, qr_codes_account_external_id):
// PostgreSQL uses such an index only for a query whose condition implies the index's own.

/** A code not deleted, of any account: for a query already narrowed to one account some other way. */
export function isLiveCode(eb: ExpressionBuilder<DatabaseSchema, 'qr_codes'>) {
  return eb('qr_codes.deleted_at', 'is', null);
}

/** A live code of the account; for updates and subqueries (a plain select starts from liveCodesOf). */
export function isLiveCodeOf(accountId: string) {
  return (eb: ExpressionBuilder<DatabaseSchema, 'qr_codes'>) =>
    eb.and([eb('qr_codes.account_id', '=', accountId), isLiveCode(eb)]);
}

/** The account's live codes, to select from: what its API calls, screens, imports and exports see. */
export function liveCodesOf(db: Db, accountId: string) {
  return db.selectFrom('qr_codes').where(isLiveCodeOf(accountId));
}

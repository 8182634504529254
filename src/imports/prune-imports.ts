import { sql } from 'kysely';
import type { Database } from '../db/schema/index.js';

/**
 * A dry run nobody confirmed within a day is stale (the account's codes have moved on since its check): it is
 * deleted with its rows (up to 10,000 each), so repeated uploads cannot grow the database without bound.
 * Confirmed imports are kept: their pages list what they created. Returns how many imports went.
 */
export const UNCONFIRMED_IMPORT_LIFETIME = '1 day';

/** Imports per statement: each takes up to 10,000 rows with it, so batches are counted in imports, not rows. */
export const IMPORT_PRUNE_BATCH = 10;

export async function pruneUnconfirmedImports(db: Database, batchSize = IMPORT_PRUNE_BATCH): Promise<number> {
  const result = await sql`
    delete from imports where id in (
      select id from imports
      where status = 'checked' and created_at < now() - ${UNCONFIRMED_IMPORT_LIFETIME}::interval
      limit ${batchSize} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

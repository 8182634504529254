import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';

/**
 * A code's lifetime counters are what qr_codes holds plus the increments scan batches have appended since the
 * last fold (qr_code_scan_increments, see its migration). Reads add the two in one statement, so a count is
 * exact and current whether or not a fold ran; a fold moves increments into qr_codes in one transaction, so a
 * reader sees each increment exactly once.
 */

/** `qr_codes.scan_count` with the unfolded increments: select it `as scan_count` from `qr_codes` (unaliased). */
export const liveScanCount = sql<number>`(qr_codes.scan_count + coalesce(
  (select sum(i.scans) from qr_code_scan_increments i where i.qr_code_id = qr_codes.id), 0))::bigint`;

/** The same for `bot_scan_count`. */
export const liveBotScanCount = sql<number>`(qr_codes.bot_scan_count + coalesce(
  (select sum(i.bot_scans) from qr_code_scan_increments i where i.qr_code_id = qr_codes.id), 0))::bigint`;

/** The same for `unique_scan_count`: each UTC day's first scan of the code by each visitor (docs/dashboard/audience.md). */
export const liveUniqueScanCount = sql<number>`(qr_codes.unique_scan_count + coalesce(
  (select sum(i.unique_scans) from qr_code_scan_increments i where i.qr_code_id = qr_codes.id), 0))::bigint`;

/** Increments folded per transaction, so a fold after a long outage never holds many code rows locked at once. */
const FOLD_LIMIT = 20_000;

/**
 * Moves increments into qr_codes: deletes up to FOLD_LIMIT of them and adds their sums to their codes, in one
 * statement. Concurrent folds (every instance runs one) cannot count an increment twice: the second one's delete
 * waits for the rows the first one took and then skips them, so it also never holds a code row the first one
 * still has to update. Returns how many increments were folded.
 */
export async function foldScanCounts(db: Db): Promise<number> {
  const { rows } = await sql<{ folded: number }>`
    with taken as (
      delete from qr_code_scan_increments
      where ctid = any(array(select ctid from qr_code_scan_increments limit ${FOLD_LIMIT}))
      returning qr_code_id, scans, bot_scans, unique_scans
    ),
    sums as (
      select qr_code_id, sum(scans) as scans, sum(bot_scans) as bot_scans, sum(unique_scans) as unique_scans, count(*) as increments
      from taken group by qr_code_id
    ),
    updated as (
      update qr_codes c set scan_count = c.scan_count + sums.scans, bot_scan_count = c.bot_scan_count + sums.bot_scans,
        unique_scan_count = c.unique_scan_count + sums.unique_scans
      from sums where c.id = sums.qr_code_id
    )
    select coalesce(sum(increments), 0)::int as folded from sums`.execute(db);
  return rows[0]?.folded ?? 0;
}

/** One code's lifetime counters, folded or not (no ownership check: for tools, tests and the bench). */
export async function scanCountsOf(db: Db, codeId: string): Promise<{ scans: number; botScans: number }> {
  const { rows } = await sql<{ scans: number; botScans: number }>`
    select ${liveScanCount} as scans, ${liveBotScanCount} as "botScans" from qr_codes where id = ${codeId}`.execute(db);
  if (!rows[0]) throw new Error(`no code ${codeId}`);
  return rows[0];
}

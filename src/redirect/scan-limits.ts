import { CompiledQuery, sql } from 'kysely';
import type { Database } from '../db/schema/index.js';
import { prepareScanBatch, type ScanEvent, WRITE_SCAN_BATCH } from './scan-batch.js';

/** Deadlocks retried before the batch fails: only a fold (src/codes/scan-counts.ts) can meet our locks in another order. */
const DEADLOCK_RETRIES = 3;

/**
 * Writes scans of codes with a scan limit (issue 28), admitting each only while its code is below the limit, and
 * returns for each scan (in order) whether it was admitted. Exact across instances because the decision is taken
 * where the scans are committed, never from a cached count:
 *
 * 1. One transaction locks the codes' rows (`for update`, in id order, so two batches never wait on each other in
 *    a circle). Every batch of limited scans takes these locks first, so they decide one after the other.
 * 2. A NEW statement (so a new snapshot, taken once the locks are held: a statement that locks and reads at once
 *    would read the increments as they were before it waited) reads each code's used count: `scan_count` plus
 *    its unfolded increments, as every count is read (src/codes/scan-counts.ts). A fold running meanwhile cannot
 *    skew it: it deletes increments and adds them to `scan_count` in one transaction, whose update of a locked
 *    code waits for this one; until it commits this snapshot sees neither half of it, after it both.
 * 3. In order of arrival, a person's scan is admitted while used + admitted < scan_limit. A bot never consumes
 *    the limit; it is admitted (redirected, counted as a bot) while the code has some left at its turn.
 * 4. Only the admitted scans are written, by the usual statement (WRITE_SCAN_BATCH, unprepared: a limited code's
 *    batches are rare beside the hot path's) in the same transaction, and the commit releases the locks.
 *
 * A code no longer there (deleted since it was cached) admits nothing; a code whose limit was removed since, all.
 * Nothing here is retried after a failure of unknown outcome (the caller answers 503). The transaction's statements
 * time out before the caller gives up, so a scan answered 503 is normally not counted; only a connection lost
 * during COMMIT can leave one counted that was answered 503, costing the code a scan of its limit, never exceeding it.
 */
export async function writeWithinLimits(db: Database, scans: readonly ScanEvent[], timeoutMs: number): Promise<boolean[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        // The caller answers 503 after `timeoutMs`: the transaction ends itself by then rather than commit later
        // (behind a lock held too long, say) scans whose scanners were told to try again. Half each, as the lock
        // and the write are separate statements.
        await sql`select set_config('statement_timeout', ${`${Math.max(1, Math.floor(timeoutMs / 2))}ms`}, true)`.execute(trx);
        const codeIds = [...new Set(scans.map((scan) => scan.codeId))].sort();
        await sql`select id from qr_codes where id = any(${codeIds}::text[]) order by id for update`.execute(trx);
        const { rows } = await sql<{ id: string; scan_limit: string | null; used: string }>`
          select q.id, q.scan_limit, (q.scan_count + coalesce(
            (select sum(i.scans) from qr_code_scan_increments i where i.qr_code_id = q.id), 0))::bigint as used
          from qr_codes q where q.id = any(${codeIds}::text[])`.execute(trx);
        const remaining = new Map(rows.map((row) => [row.id, row.scan_limit === null ? Infinity : Number(row.scan_limit) - Number(row.used)]));
        const admitted = scans.map((scan) => {
          const left = remaining.get(scan.codeId) ?? 0;
          if (left <= 0) return false;
          if (!scan.bot) remaining.set(scan.codeId, left - 1);
          return true;
        });
        const written = scans.filter((_, i) => admitted[i]);
        if (written.length > 0) {
          const batch = prepareScanBatch(written);
          await trx.executeQuery(CompiledQuery.raw(WRITE_SCAN_BATCH.text, [batch.id, batch.rows]));
        }
        return admitted;
      });
    } catch (error) {
      if ((error as { code?: unknown }).code !== '40P01' || attempt > DEADLOCK_RETRIES) throw error;
    }
  }
}

import { sql } from 'kysely';
import { liveBotScanCount, liveScanCount } from '../codes/scan-counts.js';
import type { Db } from '../db/schema/index.js';
import { type AnalyticsScope, assertScope } from './scope.js';

export interface ScanTotals {
  /** human + bot. */
  total: number;
  /** Lifetime human scans (what the API calls `total` and `scanCount`); pruning raw scans does not lower it. */
  human: number;
  /** Lifetime requests from bots (redirected, never recorded as scans, no webhook). */
  bot: number;
}

/**
 * The lifetime counters, as the scan-recording path keeps them on each code (with the increments not folded yet,
 * src/codes/scan-counts.ts); for an account, summed over all its
 * codes, deleted ones included (the scans the account's charts count). The sum reads one row per
 * code: about 0.3 s for an account with a million codes (see scripts/bench/analytics.ts), instant for the
 * business plan's thousand.
 */
export async function scanTotals(db: Db, scope: AnalyticsScope): Promise<ScanTotals> {
  await assertScope(db, scope);
  const { rows } = await (scope.codeId !== undefined
    ? sql<{ human: number; bot: number }>`
        select ${liveScanCount} as human, ${liveBotScanCount} as bot from qr_codes where id = ${scope.codeId}`
    : sql<{ human: number; bot: number }>`
        select (folded.human + unfolded.human)::bigint as human, (folded.bot + unfolded.bot)::bigint as bot
        from (select coalesce(sum(scan_count), 0) as human, coalesce(sum(bot_scan_count), 0) as bot
              from qr_codes where account_id = ${scope.accountId}) folded,
             (select coalesce(sum(i.scans), 0) as human, coalesce(sum(i.bot_scans), 0) as bot
              from qr_code_scan_increments i join qr_codes c on c.id = i.qr_code_id where c.account_id = ${scope.accountId}) unfolded`
  ).execute(db);
  const { human, bot } = rows[0] ?? { human: 0, bot: 0 };
  return { total: human + bot, human, bot };
}

import { sql } from 'kysely';
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
 * The lifetime counters, as the scan-recording path keeps them on each code; for an account, summed over all its
 * codes, deleted ones included (the scans the account's charts count). The sum reads one row per
 * code: about 0.3 s for an account with a million codes (see scripts/bench/analytics.ts), instant for the
 * business plan's thousand.
 */
export async function scanTotals(db: Db, scope: AnalyticsScope): Promise<ScanTotals> {
  await assertScope(db, scope);
  const { rows } = await (scope.codeId !== undefined
    ? sql<{ human: number; bot: number }>`
        select scan_count as human, bot_scan_count as bot from qr_codes where id = ${scope.codeId}`
    : sql<{ human: number; bot: number }>`
        select coalesce(sum(scan_count), 0)::bigint as human, coalesce(sum(bot_scan_count), 0)::bigint as bot
        from qr_codes where account_id = ${scope.accountId}`
  ).execute(db);
  const { human, bot } = rows[0] ?? { human: 0, bot: 0 };
  return { total: human + bot, human, bot };
}

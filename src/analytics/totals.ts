import { sql } from 'kysely';
import { liveBotScanCount, liveScanCount, liveUniqueScanCount } from '../codes/scan-counts.js';
import type { Db } from '../db/schema/index.js';
import { scopeHourRows } from './hour-rows.js';
import { hasFilters, type ScanFilters } from './scan-filters.js';
import { type AnalyticsScope, assertScope, foldedThroughId, inOneSnapshot } from './scope.js';

export interface ScanTotals {
  /** human + bot (human alone when filtered). */
  total: number;
  /** Lifetime human scans (what the API calls `total` and `scanCount`); pruning raw scans does not lower it. */
  human: number;
  /** Lifetime unique scans: each visitor's first scan of a code per UTC day (what the API calls `uniqueScanCount`). */
  unique: number;
  /** Lifetime requests from bots (redirected, never recorded as scans, no webhook); null when filtered (bots have no country or language). */
  bot: number | null;
  /** The filters the numbers are narrowed by (none: the lifetime counters). */
  filters: ScanFilters;
}

/** Any hour a scan can have: lifetime totals under a filter read every hour of the rollup. */
const ALL_HOURS = { fromHour: new Date('1970-01-01T00:00:00Z'), toHour: new Date('9999-01-01T00:00:00Z') };

/**
 * The lifetime counters, as the scan-recording path keeps them on each code (with the increments not folded yet,
 * src/codes/scan-counts.ts); for an account, summed over all its
 * codes, deleted ones included (the scans the account's charts count). The sum reads one row per
 * code: about 0.3 s for an account with a million codes (see scripts/bench/analytics.ts), instant for the
 * business plan's thousand.
 *
 * With filters, the human and unique scans matching them over all time, from the rollup by every dimension (the
 * counters know no countries); bots are not counted then.
 */
export async function scanTotals(db: Db, scope: AnalyticsScope, filters: ScanFilters = {}): Promise<ScanTotals> {
  if (hasFilters(filters)) return filteredTotals(db, scope, filters);
  await assertScope(db, scope);
  const { rows } = await (scope.codeId !== undefined
    ? sql<{ human: number; bot: number; unique: number }>`
        select ${liveScanCount} as human, ${liveBotScanCount} as bot, ${liveUniqueScanCount} as unique
        from qr_codes where id = ${scope.codeId}`
    : sql<{ human: number; bot: number; unique: number }>`
        select (folded.human + unfolded.human)::bigint as human, (folded.bot + unfolded.bot)::bigint as bot,
               (folded.unique + unfolded.unique)::bigint as unique
        from (select coalesce(sum(scan_count), 0) as human, coalesce(sum(bot_scan_count), 0) as bot,
                     coalesce(sum(unique_scan_count), 0) as unique
              from qr_codes where account_id = ${scope.accountId}) folded,
             (select coalesce(sum(i.scans), 0) as human, coalesce(sum(i.bot_scans), 0) as bot,
                     coalesce(sum(i.unique_scans), 0) as unique
              from qr_code_scan_increments i join qr_codes c on c.id = i.qr_code_id where c.account_id = ${scope.accountId}) unfolded`
  ).execute(db);
  const { human, bot, unique } = rows[0] ?? { human: 0, bot: 0, unique: 0 };
  return { total: human + bot, human, unique, bot, filters: {} };
}

async function filteredTotals(db: Db, scope: AnalyticsScope, filters: ScanFilters): Promise<ScanTotals> {
  return inOneSnapshot(db, async (snapshot) => {
    await assertScope(snapshot, scope);
    const watermark = await foldedThroughId(snapshot);
    const { rows } = await sql<{ human: number; unique: number }>`
      with hour_rows as (${scopeHourRows(scope, watermark, ALL_HOURS, { filters })})
      select coalesce(sum(scans), 0)::bigint as human, coalesce(sum(unique_scans), 0)::bigint as unique from hour_rows`.execute(snapshot);
    const { human, unique } = rows[0] ?? { human: 0, unique: 0 };
    return { total: human, human, unique, bot: null, filters };
  });
}

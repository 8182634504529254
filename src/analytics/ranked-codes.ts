import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { filterConditions } from './hour-rows.js';
import { hasFilters, type ScanFilters } from './scan-filters.js';
import { resolveWindow, type ScanRange, type ScanWindow } from './scan-window.js';
import { foldedThroughId, inOneSnapshot } from './scope.js';
import { inTimeZone, resolveTimeZone } from './time-zones.js';

export interface RankedCode {
  id: string;
  name: string;
  deleted: boolean;
  scans: number;
  uniqueScans: number;
}

export interface RankedCodes extends ScanWindow {
  /** The codes with the most scans in the range, most first (ties: more unique scans, then by name). */
  codes: RankedCode[];
  /** How many of the account's codes had scans in the range (the list shows at most `limit`). */
  scannedCodes: number;
  filters: ScanFilters;
}

export interface RankedCodesInput {
  accountId: string;
  range: ScanRange;
  timeZone?: string | null;
  now?: Date;
  /** Codes listed (default 10). */
  limit?: number;
  filters?: ScanFilters;
}

export const DEFAULT_RANKED_CODES = 10;

/**
 * The account's codes ranked by human scans in the range (with their unique scans), deleted codes included like
 * the account's charts: the per-code rollup (by kind of phone, or by every dimension when filtered) for the range's
 * hours plus the scans since its last fold, over the same window as `scanTimeSeries`.
 */
export async function rankedCodes(db: Db, input: RankedCodesInput): Promise<RankedCodes> {
  const now = input.now ?? new Date();
  const limit = input.limit ?? DEFAULT_RANKED_CODES;
  const filters = input.filters ?? {};
  const scope = { accountId: input.accountId };
  return inTimeZone(resolveTimeZone(input.timeZone), (timeZone) =>
    inOneSnapshot(db, async (snapshot) => {
      const watermark = await foldedThroughId(snapshot);
      const { window, hours } = await resolveWindow(snapshot, scope, watermark, { range: input.range, timeZone, now });
      if (input.range === 'all' && !hasFilters(filters)) {
        return { ...window, ...(await byLifetimeCounters(snapshot, input.accountId, limit)), filters };
      }
      const rollup = sql.table(hasFilters(filters) ? 'scan_hourly_audience' : 'scan_hourly');
      const { rows } = await sql<RankedCode & { scannedCodes: number }>`
        with per_code as (
          select r.qr_code_id, sum(r.scans) as scans, sum(r.unique_scans) as unique_scans
          from qr_codes c join ${rollup} r on r.qr_code_id = c.id
          where c.account_id = ${input.accountId} and r.hour >= ${hours.fromHour} and r.hour < ${hours.toHour}${filterConditions(filters, 'r')}
          group by 1
          union all
          select s.qr_code_id, sum(coalesce(cardinality(s.times), 1)),
                 sum(case when s.is_unique then coalesce(cardinality(s.times), 1) else 0 end)
          from scan_groups s join qr_codes c on c.id = s.qr_code_id
          where s.id > ${watermark} and c.account_id = ${input.accountId} and s.first_at >= ${hours.fromHour}
            and s.first_at < ${hours.toHour}${filterConditions(filters, 's')}
          group by 1
        ),
        summed as (
          select qr_code_id, sum(scans)::bigint as scans, sum(unique_scans)::bigint as unique_scans from per_code group by 1
        )
        select c.id, c.name, c.deleted_at is not null as deleted, s.scans, s.unique_scans as "uniqueScans",
               count(*) over ()::int as "scannedCodes"
        from summed s join qr_codes c on c.id = s.qr_code_id
        where s.scans > 0
        order by s.scans desc, s.unique_scans desc, c.name, c.id
        limit ${limit}`.execute(snapshot);
      return {
        ...window,
        codes: rows.map(({ scannedCodes: _, ...code }) => code),
        scannedCodes: rows[0]?.scannedCodes ?? 0,
        filters,
      };
    }),
  );
}

/**
 * All time, unfiltered: the codes' lifetime counters (with their unfolded increments) are the same numbers, one
 * row per code instead of every rollup row of the account (measured with 200,000 scanned codes: 5.5 s that way).
 */
async function byLifetimeCounters(db: Db, accountId: string, limit: number): Promise<{ codes: RankedCode[]; scannedCodes: number }> {
  const { rows } = await sql<RankedCode & { scannedCodes: number }>`
    with unfolded as (
      select i.qr_code_id, sum(i.scans) as scans, sum(i.unique_scans) as unique_scans
      from qr_code_scan_increments i join qr_codes c on c.id = i.qr_code_id
      where c.account_id = ${accountId} group by 1
    ),
    counted as (
      select c.id, c.name, c.deleted_at is not null as deleted, (c.scan_count + coalesce(u.scans, 0))::bigint as scans,
             (c.unique_scan_count + coalesce(u.unique_scans, 0))::bigint as unique_scans
      from qr_codes c left join unfolded u on u.qr_code_id = c.id
      where c.account_id = ${accountId}
    )
    select id, name, deleted, scans, unique_scans as "uniqueScans", count(*) over ()::int as "scannedCodes"
    from counted where scans > 0
    order by scans desc, unique_scans desc, name, id
    limit ${limit}`.execute(db);
  return { codes: rows.map(({ scannedCodes: _, ...code }) => code), scannedCodes: rows[0]?.scannedCodes ?? 0 };
}

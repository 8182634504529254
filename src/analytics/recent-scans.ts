import { type RawBuilder, sql } from 'kysely';
import { newestScansOfCode } from '../codes/qr-code-service.js';
import type { Db } from '../db/schema/index.js';
import { newestScanRows } from '../db/scan-pages.js';
import { filterConditions } from './hour-rows.js';
import { hasFilters, type ScanFilters } from './scan-filters.js';
import { type AnalyticsScope, assertScope, foldedThroughId, inOneSnapshot } from './scope.js';

export interface RecentScan {
  at: Date;
  device: string;
  os: string;
  browser: string;
  /** The scanned code (for an account's scans; deleted codes included, like the account's charts). */
  code?: { id: string; name: string; deleted: boolean };
}

/** How many the dashboard shows: enough to see that scans arrive and from what, not a log (that is the CSV). */
export const RECENT_SCANS_SHOWN = 20;

/**
 * The fast path for an account looks this many scan groups back in recording order (at least as many scans): an
 * account scanned a lot right now (the usual reason to look) is answered from this window alone, whatever its
 * number of codes.
 */
const RECENT_GROUP_WINDOW = 20_000;

interface ScanRow {
  at: Date;
  device: string;
  os: string;
  browser: string;
  code_id: string;
  code_name: string;
  code_deleted: boolean;
}

/**
 * The scope's most recent human scans still stored, newest first, matching `filters` like every other number of
 * the page. 404 for a code of another account.
 * A code's are read from its newest-first index. An account's have no index of their own (scans carry no account
 * id), so they come from the last scans recorded service-wide when there are enough of them there, and otherwise
 * from the codes the hourly rollup names in the account's latest hours with scans. Filtered, the rollup by every
 * dimension names the latest hours with matching scans (latestMatching).
 */
export async function recentScans(db: Db, scope: AnalyticsScope, limit = RECENT_SCANS_SHOWN, filters: ScanFilters = {}): Promise<RecentScan[]> {
  await assertScope(db, scope);
  if (hasFilters(filters)) {
    if (scope.codeId === undefined) {
      const recent = await latestRecorded(db, scope.accountId, limit, filters);
      if (recent.length >= limit) return recent.map(toRecentScan);
    }
    const rows = await latestMatching(db, scope, limit, filters);
    return rows.map((row) => (scope.codeId === undefined ? toRecentScan(row) : withoutCode(toRecentScan(row))));
  }
  if (scope.codeId !== undefined) {
    const scans = await newestScansOfCode(db, scope.codeId, limit);
    return scans.map(({ createdAt, ...rest }) => ({ at: createdAt, ...rest }));
  }
  const recent = await latestRecorded(db, scope.accountId, limit);
  if (recent.length >= limit) return recent.map(toRecentScan);
  return (await latestPerCode(db, scope.accountId, limit)).map(toRecentScan);
}

const scanColumns = sql`s.created_at as at, s.device, s.os, s.browser, c.id as code_id, c.name as code_name,
  c.deleted_at is not null as code_deleted`;

async function latestRecorded(db: Db, accountId: string, limit: number, filters: ScanFilters = {}): Promise<ScanRow[]> {
  // Materialized, so the window is read first through the primary key: left to itself the planner starts from the
  // account's codes and walks all of a code's scans (700 ms for a code with 10M scans; this takes a few ms).
  const { rows } = await sql<ScanRow>`
    with window_scans as materialized (
      select group_id, position, qr_code_id, created_at, device, os, browser from scans w
      where group_id > (select coalesce(max(id), 0) from scan_groups) - ${RECENT_GROUP_WINDOW}${filterConditions(filters, 'w')}
    )
    select ${scanColumns}
    from window_scans s join qr_codes c on c.id = s.qr_code_id
    where c.account_id = ${accountId}
    order by s.created_at desc, s.group_id desc, s.position desc
    limit ${limit}`.execute(db);
  return rows;
}

/**
 * The newest scans of the codes that have any in the hours the rollup says hold the account's newest `limit`
 * (found through the rollup's hour index), or in the scans not folded yet. One snapshot, so a fold committing
 * meanwhile cannot move scans out of the tail and into an hour not looked at. Each code reads only back to the
 * oldest of those hours: a code with millions of scans gives at most `limit` rows.
 */
async function latestPerCode(db: Db, accountId: string, limit: number): Promise<ScanRow[]> {
  return inOneSnapshot(db, async (snapshot) => {
    const watermark = await foldedThroughId(snapshot);
    const { hours, since } = await hoursNeeded(snapshot, accountId, limit);
    // Laterals keep both lookups per candidate code on an index: as joins, the planner read all of a million-code
    // account's codes (400 ms) to match 25,000 candidates.
    const { rows } = await sql<ScanRow>`
      with candidates as (
        select qr_code_id from scan_hourly where hour = any(${hours}::timestamptz[])
        union
        select qr_code_id from scan_groups where id > ${watermark}
      ),
      newest as (
        select s.* from candidates k
        cross join lateral (select 1 from qr_codes where account_id = ${accountId} and id = k.qr_code_id) owned
        cross join lateral (${newestScanRows(sql`k.qr_code_id`, limit, since)}) s
        order by s.created_at desc, s.group_id desc, s.position desc
        limit ${limit}
      )
      select ${scanColumns}
      from newest s join qr_codes c on c.id = s.qr_code_id
      order by s.created_at desc, s.group_id desc, s.position desc
      limit ${limit}`.execute(snapshot);
    return rows;
  });
}

/**
 * The account's newest rollup hours, back to the first from which on they count at least `limit` scans (`since`):
 * no scan before it can be among the newest `limit` (scans not folded yet are newer still, and pruning removes
 * the oldest first). When the rollup holds fewer, every hour it has, and no bound.
 */
async function hoursNeeded(db: Db, accountId: string, limit: number): Promise<{ hours: Date[]; since?: Date }> {
  const rows = await db
    .selectFrom('account_scan_hourly')
    .select(['hour', sql<number>`sum(scans)::bigint`.as('scans')])
    .where('account_id', '=', accountId)
    .groupBy('hour')
    .orderBy('hour', 'desc')
    .limit(limit)
    .execute();
  return newestHoursHolding(rows, limit);
}

/** The newest of `rows` (hours, newest first) until they hold `limit` scans; `since` is the last one taken then. */
function newestHoursHolding(rows: ReadonlyArray<{ hour: Date; scans: number }>, limit: number): { hours: Date[]; since?: Date } {
  const hours: Date[] = [];
  let counted = 0;
  for (const row of rows) {
    hours.push(row.hour);
    counted += row.scans;
    if (counted >= limit) return { hours, since: row.hour };
  }
  return { hours };
}

/**
 * The scope's newest `limit` scans matching `filters`: the rollup by every dimension names the newest hours holding
 * that many (hoursMatching), and only the scan groups of those hours (of the codes scanned in them) are unpacked, plus
 * the groups not folded yet. A group's scans all lie in the UTC hour of its first one (they share a second), the
 * hour the rollup counts them in, so no matching scan newer than those hours' is left out. Bounded by the scans of
 * at most `limit` hours whatever the scope's lifetime total, where walking the newest-first index with a rare
 * filter (a country with one scan in a thousand) would read most of a code's groups. One snapshot, as the rollup
 * and the watermark belong together.
 */
async function latestMatching(db: Db, scope: AnalyticsScope, limit: number, filters: ScanFilters): Promise<ScanRow[]> {
  return inOneSnapshot(db, async (snapshot) => {
    const watermark = await foldedThroughId(snapshot);
    const { hours } = await hoursMatching(snapshot, scope, limit, filters);
    const matching = filterConditions(filters, 'g');
    const groupColumns = sql`g.id, g.qr_code_id, g.first_at, g.times, g.device, g.os, g.browser`;
    const inHour = (code: RawBuilder<unknown>, hour: RawBuilder<unknown>) => sql`
      select ${groupColumns} from scan_groups g
      where g.qr_code_id = ${code} and g.first_at >= ${hour} and g.first_at < ${hour} + interval '1 hour'
        and g.id <= ${watermark}${matching}`;
    const candidates =
      scope.codeId !== undefined
        ? sql`
            select g.* from unnest(${hours}::timestamptz[]) h(hour) cross join lateral (${inHour(sql`${scope.codeId}`, sql`h.hour`)}) g
            union all
            select ${groupColumns} from scan_groups g where g.id > ${watermark} and g.qr_code_id = ${scope.codeId}${matching}`
        : // The codes scanned in those hours (scan_hourly's hour index), the account's, with matching scans in the hour
          // by the rollup by every dimension (a cheap index read) before their groups are read.
          sql`
            select g.* from (select distinct qr_code_id, hour from scan_hourly where hour = any(${hours}::timestamptz[])) k
            cross join lateral (select 1 from qr_codes where account_id = ${scope.accountId} and id = k.qr_code_id) owned
            cross join lateral (select 1 from scan_hourly_audience r
                                where r.qr_code_id = k.qr_code_id and r.hour = k.hour${filterConditions(filters, 'r')} limit 1) counted
            cross join lateral (${inHour(sql`k.qr_code_id`, sql`k.hour`)}) g
            union all
            select ${groupColumns} from scan_groups g join qr_codes c on c.id = g.qr_code_id
            where g.id > ${watermark} and c.account_id = ${scope.accountId}${matching}`;
    const { rows } = await sql<ScanRow>`
      with candidates as (${candidates}),
      s as (
        select g.id as group_id, t.position, g.qr_code_id, t.created_at, g.device, g.os, g.browser
        from candidates g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)
      )
      select ${scanColumns}
      from s join qr_codes c on c.id = s.qr_code_id
      order by s.created_at desc, s.group_id desc, s.position desc
      limit ${limit}`.execute(snapshot);
    return rows;
  });
}

/** Like hoursNeeded, for the scans matching `filters`, from the rollup by every dimension (of a code or an account). */
async function hoursMatching(db: Db, scope: AnalyticsScope, limit: number, filters: ScanFilters): Promise<{ hours: Date[] }> {
  const [table, key, id] =
    scope.codeId !== undefined
      ? ['scan_hourly_audience', 'qr_code_id', scope.codeId]
      : ['account_scan_hourly_audience', 'account_id', scope.accountId];
  const { rows } = await sql<{ hour: Date; scans: number }>`
    select hour, sum(scans)::bigint as scans from ${sql.table(table)} r
    where ${sql.ref(`r.${key}`)} = ${id}${filterConditions(filters, 'r')}
    group by hour order by hour desc limit ${limit}`.execute(db);
  return newestHoursHolding(rows, limit);
}

function withoutCode({ code: _, ...scan }: RecentScan): RecentScan {
  return scan;
}

function toRecentScan(row: ScanRow): RecentScan {
  return {
    at: row.at,
    device: row.device,
    os: row.os,
    browser: row.browser,
    code: { id: row.code_id, name: row.code_name, deleted: row.code_deleted },
  };
}

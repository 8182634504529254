import { sql } from 'kysely';
import { newestScansOfCode } from '../codes/qr-code-service.js';
import type { Db } from '../db/schema/index.js';
import { newestScanRows } from '../db/scan-pages.js';
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
 * The scope's most recent human scans still stored, newest first. 404 for a code of another account.
 * A code's are read from its newest-first index. An account's have no index of their own (scans carry no account
 * id), so they come from the last scans recorded service-wide when there are enough of them there, and otherwise
 * from the codes the hourly rollup names in the account's latest hours with scans.
 */
export async function recentScans(db: Db, scope: AnalyticsScope, limit = RECENT_SCANS_SHOWN): Promise<RecentScan[]> {
  await assertScope(db, scope);
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

async function latestRecorded(db: Db, accountId: string, limit: number): Promise<ScanRow[]> {
  // Materialized, so the window is read first through the primary key: left to itself the planner starts from the
  // account's codes and walks all of a code's scans (700 ms for a code with 10M scans; this takes a few ms).
  const { rows } = await sql<ScanRow>`
    with window_scans as materialized (
      select group_id, position, qr_code_id, created_at, device, os, browser from scans
      where group_id > (select coalesce(max(id), 0) from scan_groups) - ${RECENT_GROUP_WINDOW}
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
  const hours: Date[] = [];
  let counted = 0;
  for (const row of rows) {
    hours.push(row.hour);
    counted += row.scans;
    if (counted >= limit) return { hours, since: row.hour };
  }
  return { hours };
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

import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from './schema/index.js';
import type { ScanGroupsTable } from './schema/scans.js';
import { inOneSnapshot } from './snapshot.js';

/**
 * Pages of one code's scans in time order, read from `scan_groups` (one row per batch, kind of device and UTC
 * second; see the migration 20261125T1839-packed-scans) through scan_groups_code_newest.
 *
 * Scans are ordered by (time, group id, position in the group). Groups of one code overlap in time (two batches at
 * once, a batch written late after an outage), so the groups to unpack for a page are found from one fact: every
 * time of a group lies in the second its `first_at` starts.
 * - Newest `limit`: the `limit` groups with the newest `first_at` each hold a scan at or after the last of them,
 *   f, so the newest `limit` scans are at or after f, and every group holding one starts in f's second or later.
 * - Oldest `limit` after a cursor: groups starting in the cursor's second may hold scans on either side of it; of
 *   the later ones, the first `limit` by `first_at` hold `limit` scans at or before the last of them, f, so the page
 *   ends at or before f, and every group holding one of its scans starts in f's second or earlier.
 * A page thus unpacks its `limit` groups (each holds at least one scan) plus the others starting in a boundary
 * second, whatever the code's lifetime total.
 */

/** A scan as the pages give it: its time, its place in its group, and what the group says about it. */
export type ScanPageRow = Pick<
  Selectable<ScanGroupsTable>,
  'qr_code_id' | 'device' | 'os' | 'browser' | 'destination_url' | 'referrer_host' | 'country' | 'region' | 'city' | 'language' | 'is_unique' | 'rule_id' | 'variant'
> & { group_id: number; position: number; created_at: Date };

const UNPACKED = sql`g.id as group_id, t.position, g.qr_code_id, t.created_at, g.device, g.os, g.browser,
  g.destination_url, g.referrer_host, g.country, g.region, g.city, g.language, g.is_unique, g.rule_id, g.variant
  from scan_groups g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)`;

/**
 * The code's newest `limit` scans at or after `since` (when given), newest first, as one statement: for a lateral
 * over many codes (each a nested index lookup). For one code, newestScanRowsOfCode plans better.
 */
export function newestScanRows(codeId: RawBuilder<unknown> | string, limit: number, since?: Date): RawBuilder<ScanPageRow> {
  return newestScanRowsFrom(codeId, limit, sql`coalesce((${newestBound(codeId, limit, since)}), '-infinity')`, since);
}

/**
 * The same for one code, in two statements of one snapshot: the bound is read first, so the second is planned
 * knowing it. As one statement, PostgreSQL cannot know the bound when planning and guessed a third of the code's
 * groups: it read all 4M groups of the table (205 ms) to return 20 scans of a code with 2M.
 */
export async function newestScanRowsOfCode(db: Db, codeId: string, limit: number, since?: Date): Promise<ScanPageRow[]> {
  return inOneSnapshot(db, async (snapshot) => {
    const { rows: [bound] } = await newestBound(codeId, limit, since).execute(snapshot);
    const { rows } = await newestScanRowsFrom(codeId, limit, sql`${bound?.from_second ?? '-infinity'}::timestamptz`, since).execute(snapshot);
    return rows;
  });
}

/** The second the `limit`-th newest group (at or after `since`) starts in; no row when there are fewer. */
function newestBound(codeId: RawBuilder<unknown> | string, limit: number, since?: Date): RawBuilder<{ from_second: Date }> {
  const sinceGroups = since ? sql`and first_at >= ${since}` : sql``;
  return sql<{ from_second: Date }>`
    select date_trunc('second', first_at) as from_second from scan_groups
    where qr_code_id = ${codeId} ${sinceGroups}
    order by first_at desc, id desc offset ${limit - 1} limit 1`;
}

function newestScanRowsFrom(codeId: RawBuilder<unknown> | string, limit: number, fromSecond: RawBuilder<unknown>, since?: Date): RawBuilder<ScanPageRow> {
  const sinceScans = since ? sql`and g.first_at >= date_trunc('second', ${since}::timestamptz) and t.created_at >= ${since}` : sql``;
  return sql<ScanPageRow>`
    select ${UNPACKED}
    where g.qr_code_id = ${codeId} and g.first_at >= ${fromSecond} ${sinceScans}
    order by t.created_at desc, g.id desc, t.position desc
    limit ${limit}`;
}

/** Where an oldest-first page ended: its last scan's time in microseconds (exact), group and position. */
/** A scan with its time in microseconds since the epoch: a JS Date keeps only milliseconds, a cursor must be exact. */
export type TimedScanRow = ScanPageRow & { at_us: number };

export interface ScanCursor {
  atMicros: number;
  groupId: number;
  position: number;
}

/**
 * The code's `limit` oldest scans after `after` (from the start when not given), oldest first, among the groups
 * with ids up to `lastGroupId`. Rows carry `at_us`, the time in microseconds, to continue from. Two statements,
 * the bound first (see newestScanRowsOfCode); a page is one snapshot's, and the groups up to `lastGroupId` do not
 * change between pages but for pruning. `groupsWhere` (` and g.country = …`, on the group's own columns) keeps only
 * some groups: the bound still holds, as each group kept holds at least one scan.
 */
export async function oldestScanRows(
  db: Db,
  codeId: string,
  lastGroupId: number,
  limit: number,
  after?: ScanCursor,
  groupsWhere: RawBuilder<unknown> = sql``,
): Promise<TimedScanRow[]> {
  const cursorAt = after
    ? sql`(timestamptz 'epoch' + (${String(after.atMicros)} || ' microseconds')::interval)`
    : sql`'-infinity'::timestamptz`;
  const afterCursor = after ? sql`and (t.created_at, g.id, t.position) > (${cursorAt}, ${after.groupId}, ${after.position})` : sql``;
  return inOneSnapshot(db, async (snapshot) => {
    const { rows: [bound] } = await sql<{ until: Date }>`
      select date_trunc('second', first_at) + interval '1 second' as until from scan_groups g
      where qr_code_id = ${codeId} and id <= ${lastGroupId} and first_at >= date_trunc('second', ${cursorAt}) + interval '1 second'
        ${groupsWhere}
      order by first_at, id offset ${limit - 1} limit 1`.execute(snapshot);
    const { rows } = await sql<TimedScanRow>`
      select (extract(epoch from t.created_at) * 1000000)::bigint as at_us, ${UNPACKED}
      where g.qr_code_id = ${codeId} and g.id <= ${lastGroupId}
        and g.first_at >= date_trunc('second', ${cursorAt}) and g.first_at < ${bound?.until ?? 'infinity'}::timestamptz
        ${afterCursor} ${groupsWhere}
      order by t.created_at, g.id, t.position
      limit ${limit}`.execute(snapshot);
    return rows;
  });
}

/**
 * All of a code's scans among the groups up to `lastGroupId`, as oldestScanRows pages them, oldest first: page after
 * page, each continuing from the last row of the one before, up to a short page (which may be empty).
 */
export async function* oldestScanPages(
  db: Db,
  codeId: string,
  lastGroupId: number,
  pageSize: number,
  groupsWhere?: RawBuilder<unknown>,
): AsyncGenerator<TimedScanRow[]> {
  let after: ScanCursor | undefined;
  for (;;) {
    const page = await oldestScanRows(db, codeId, lastGroupId, pageSize, after, groupsWhere);
    yield page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { atMicros: last.at_us, groupId: last.group_id, position: last.position };
  }
}

import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { ceilToHour, floorToHour, HOUR_MS, type HourWindow } from './hour-rows.js';
import type { AnalyticsScope } from './scope.js';
import type { ScanRange } from './scan-ranges.js';
import { hasWholeHourOffsets } from './time-zones.js';

// Pure, so pages can list the ranges without loading the queries; re-exported for the callers that import them from here.
export { DEFAULT_SCAN_RANGE, parseScanRange, SCAN_RANGES, type ScanRange } from './scan-ranges.js';

export type BucketSize = 'hour' | 'day' | 'week' | 'month';

const DAYS_OF_RANGE = { '7d': 7, '30d': 30, '90d': 90 } as const;
const DAY_MS = 24 * HOUR_MS;
/** "All" keeps one bar per day up to a year, then per week up to three years (≤ 157 bars), then per month. */
const MAX_DAILY_SPAN_DAYS = 366;
const MAX_WEEKLY_SPAN_DAYS = 3 * 366;

export function bucketSizeForSpan(first: Date, now: Date): Exclude<BucketSize, 'hour'> {
  const days = (now.getTime() - first.getTime()) / DAY_MS;
  if (days <= MAX_DAILY_SPAN_DAYS) return 'day';
  return days <= MAX_WEEKLY_SPAN_DAYS ? 'week' : 'month';
}

/** The buckets a range covers, in the viewer's zone. */
export interface ScanWindow {
  range: ScanRange;
  timeZone: string;
  bucketSize: BucketSize;
  /** Start of the first bucket. */
  from: Date;
  /** The moment the numbers are for; the last bucket holds it. */
  to: Date;
  /** False when day boundaries are rounded to whole UTC hours (zones like Asia/Kolkata; see time-zones.ts). */
  exactBoundaries: boolean;
}

/**
 * 24h: the current UTC hour and the 23 before it (hours are the same everywhere, but labelled in local time);
 * 7d/30d/90d: today and the days before it, from local midnight; all: from the bucket holding the scope's first
 * scan (today when it has none). Every bucket boundary comes from PostgreSQL's zone rules, so a day is 23 or 25
 * hours long across a DST change.
 */
export async function resolveWindow(
  db: Db,
  scope: AnalyticsScope,
  watermark: number,
  input: { range: ScanRange; timeZone: string; now: Date },
): Promise<{ window: ScanWindow; hours: HourWindow }> {
  const { range, timeZone, now } = input;
  const toHour = new Date(floorToHour(now).getTime() + HOUR_MS);
  if (range === '24h') {
    const from = new Date(toHour.getTime() - 24 * HOUR_MS);
    return { window: { range, timeZone, bucketSize: 'hour', from, to: now, exactBoundaries: true }, hours: { fromHour: from, toHour } };
  }
  let anchor = now;
  let bucketSize: BucketSize = 'day';
  let daysBack = 0;
  if (range === 'all') {
    const first = await firstScanHour(db, scope, watermark);
    // A scan stamped in the future (a skewed clock) must not leave the range without buckets.
    if (first && first < now) anchor = first;
    bucketSize = bucketSizeForSpan(anchor, now);
  } else {
    daysBack = DAYS_OF_RANGE[range] - 1;
  }
  const { rows } = await sql<{ from: Date }>`
    select (date_trunc(${bucketSize}, ${anchor}::timestamptz at time zone ${timeZone}) - make_interval(days => ${daysBack}))
           at time zone ${timeZone} as from`.execute(db);
  const from = rows[0]!.from;
  return {
    window: { range, timeZone, bucketSize, from, to: now, exactBoundaries: hasWholeHourOffsets(timeZone, [from, now]) },
    // In zones offset by a fraction of an hour, local midnight falls inside a UTC hour: that hour counts in the
    // day it starts in, like every hour (see time-zones.ts).
    hours: { fromHour: ceilToHour(from), toHour },
  };
}

async function firstScanHour(db: Db, scope: AnalyticsScope, watermark: number): Promise<Date | undefined> {
  // least() skips nulls: the rollup's first hour, or the tail's when nothing is folded yet.
  const query =
    scope.codeId !== undefined
      ? sql<{ first: Date | null }>`select least(
          (select min(hour) from scan_hourly where qr_code_id = ${scope.codeId}),
          (select date_trunc('hour', min(first_at), 'UTC') from scan_groups where id > ${watermark} and qr_code_id = ${scope.codeId})) as first`
      : sql<{ first: Date | null }>`select least(
          (select min(hour) from account_scan_hourly where account_id = ${scope.accountId}),
          (select date_trunc('hour', min(s.first_at), 'UTC') from scan_groups s join qr_codes c on c.id = s.qr_code_id
           where s.id > ${watermark} and c.account_id = ${scope.accountId})) as first`;
  const { rows } = await query.execute(db);
  return rows[0]?.first ?? undefined;
}

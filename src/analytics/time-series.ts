import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { type HourWindow, scopeHourRows } from './hour-rows.js';
import type { ScanFilters } from './scan-filters.js';
import { resolveWindow, type BucketSize, type ScanRange, type ScanWindow } from './scan-window.js';
import { type AnalyticsScope, assertScope, foldedThroughId, inOneSnapshot } from './scope.js';
import { inTimeZone, resolveTimeZone } from './time-zones.js';

export interface ScanBucket {
  /** The instant the bucket starts. */
  start: Date;
  /** Its start in the viewer's zone: `2026-03-29 02:00` (hour), `2026-03-29` (day; week: its Monday), `2026-03` (month). */
  label: string;
  scans: number;
  /** Of those, visitors' first scans of a code that UTC day. */
  uniqueScans: number;
}

export interface ScanTimeSeries extends ScanWindow {
  /** Every bucket of the range, oldest first, with 0 where there were no scans. */
  buckets: ScanBucket[];
  /** Scans in the range (the sum of the buckets). */
  total: number;
  /** Unique scans in the range (the sum of the buckets' unique scans). */
  uniqueTotal: number;
  /** The filters the numbers are narrowed by (none: every scan). */
  filters: ScanFilters;
}

export interface ScanTimeSeriesInput {
  scope: AnalyticsScope;
  range: ScanRange;
  /** The viewer's IANA zone; missing or unknown: UTC (the result says which zone was used). */
  timeZone?: string | null;
  now?: Date;
  /** Narrows every bucket to scans matching all of these. */
  filters?: ScanFilters;
}

const LABELS: Record<BucketSize, string> = {
  hour: 'YYYY-MM-DD HH24:MI',
  day: 'YYYY-MM-DD',
  week: 'YYYY-MM-DD',
  month: 'YYYY-MM',
};

/**
 * Human scans over time for one code or a whole account, zero-filled, in the viewer's zone: exact and current
 * (the hourly rollup plus the scans recorded since its last fold). 404 for a code of another account.
 */
export async function scanTimeSeries(db: Db, input: ScanTimeSeriesInput): Promise<ScanTimeSeries> {
  const now = input.now ?? new Date();
  return inTimeZone(resolveTimeZone(input.timeZone), (timeZone) =>
    inOneSnapshot(db, async (snapshot) => {
      await assertScope(snapshot, input.scope);
      const watermark = await foldedThroughId(snapshot);
      const { window, hours } = await resolveWindow(snapshot, input.scope, watermark, { range: input.range, timeZone, now });
      const filters = input.filters ?? {};
      const rows = scopeHourRows(input.scope, watermark, hours, { filters });
      const buckets = await readBuckets(snapshot, rows, window, hours);
      return {
        ...window,
        buckets,
        total: buckets.reduce((sum, bucket) => sum + bucket.scans, 0),
        uniqueTotal: buckets.reduce((sum, bucket) => sum + bucket.uniqueScans, 0),
        filters,
      };
    }),
  );
}

async function readBuckets(db: Db, rows: RawBuilder<unknown>, window: ScanWindow, hours: HourWindow): Promise<ScanBucket[]> {
  const { timeZone, bucketSize } = window;
  const label = LABELS[bucketSize];
  // Hours are absolute (24 of them, labelled in local time, so a DST change shows 01:00 then 03:00); days, weeks
  // and months are local calendar units, generated as local timestamps so they are 23 or 25 hours long when the
  // clocks change.
  const query =
    bucketSize === 'hour'
      ? sql<ScanBucket>`
          with hour_rows as (${rows}),
          per_hour as (select hour, sum(scans) as scans, sum(unique_scans) as unique_scans from hour_rows group by hour)
          select b.start, to_char(b.start at time zone ${timeZone}, ${label}) as label, coalesce(p.scans, 0)::bigint as scans,
                 coalesce(p.unique_scans, 0)::bigint as "uniqueScans"
          from generate_series(${hours.fromHour}::timestamptz, ${hours.toHour}::timestamptz - interval '1 hour', interval '1 hour') as b(start)
          left join per_hour p on p.hour = b.start
          order by b.start`
      : sql<ScanBucket>`
          with hour_rows as (${rows}),
          per_hour as (select hour, sum(scans) as scans, sum(unique_scans) as unique_scans from hour_rows group by hour),
          -- Converted to local time once per hour, not once per (hour, device, os, browser) row.
          per_bucket as (
            select date_trunc(${bucketSize}, hour at time zone ${timeZone}) as local_start, sum(scans) as scans,
                   sum(unique_scans) as unique_scans
            from per_hour group by 1
          )
          select b.local_start at time zone ${timeZone} as start, to_char(b.local_start, ${label}) as label,
                 coalesce(p.scans, 0)::bigint as scans, coalesce(p.unique_scans, 0)::bigint as "uniqueScans"
          from generate_series(
                 date_trunc(${bucketSize}, ${window.from}::timestamptz at time zone ${timeZone}),
                 date_trunc(${bucketSize}, ${window.to}::timestamptz at time zone ${timeZone}),
                 make_interval(days => ${bucketSize === 'day' ? 1 : 0}, weeks => ${bucketSize === 'week' ? 1 : 0},
                               months => ${bucketSize === 'month' ? 1 : 0})) as b(local_start)
          left join per_bucket p using (local_start)
          order by b.local_start`;
  return (await query.execute(db)).rows;
}

import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { scopeHourRows } from './hour-rows.js';
import type { ScanFilters } from './scan-filters.js';
import { resolveWindow, type ScanRange, type ScanWindow } from './scan-window.js';
import { type AnalyticsScope, assertScope, foldedThroughId, inOneSnapshot } from './scope.js';
import { inTimeZone, resolveTimeZone } from './time-zones.js';

export interface WeekHours extends ScanWindow {
  /**
   * Scans by local weekday and hour of day: `scans[0]` is Monday, `scans[6]` Sunday, each 24 hours from 00:00.
   * A UTC hour counts in the local hour it starts in (in zones offset by half an hour, 05:30–06:30 counts as 05).
   */
  scans: number[][];
  uniqueScans: number[][];
  /** The busiest cell's scans (0 when there were none): the heatmap's scale. */
  max: number;
  total: number;
  filters: ScanFilters;
}

export interface WeekHoursInput {
  scope: AnalyticsScope;
  range: ScanRange;
  timeZone?: string | null;
  now?: Date;
  filters?: ScanFilters;
}

/**
 * When people scan: the range's human scans as a weekday × hour-of-day matrix in the viewer's zone, over the same
 * window as `scanTimeSeries` (same total). 404 for a code of another account.
 */
export async function scansByWeekHour(db: Db, input: WeekHoursInput): Promise<WeekHours> {
  const now = input.now ?? new Date();
  const filters = input.filters ?? {};
  return inTimeZone(resolveTimeZone(input.timeZone), (timeZone) =>
    inOneSnapshot(db, async (snapshot) => {
      await assertScope(snapshot, input.scope);
      const watermark = await foldedThroughId(snapshot);
      const { window, hours } = await resolveWindow(snapshot, input.scope, watermark, { range: input.range, timeZone, now });
      const { rows } = await sql<{ weekday: number; hour: number; scans: number; uniqueScans: number }>`
        with hour_rows as (${scopeHourRows(input.scope, watermark, hours, { filters })}),
        -- Converted to local time once per hour, not once per row.
        per_hour as (select hour, sum(scans) as scans, sum(unique_scans) as unique_scans from hour_rows group by hour)
        select extract(isodow from hour at time zone ${timeZone})::int - 1 as weekday,
               extract(hour from hour at time zone ${timeZone})::int as hour,
               sum(scans)::bigint as scans, sum(unique_scans)::bigint as "uniqueScans"
        from per_hour group by 1, 2`.execute(snapshot);
      const scans = emptyWeek();
      const uniqueScans = emptyWeek();
      for (const row of rows) {
        scans[row.weekday]![row.hour] = row.scans;
        uniqueScans[row.weekday]![row.hour] = row.uniqueScans;
      }
      const cells = scans.flat();
      return { ...window, scans, uniqueScans, max: Math.max(0, ...cells), total: cells.reduce((a, b) => a + b, 0), filters };
    }),
  );
}

function emptyWeek(): number[][] {
  return Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
}

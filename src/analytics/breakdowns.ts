import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { scopeHourRows } from './hour-rows.js';
import type { ScanFilters } from './scan-filters.js';
import { resolveWindow, type ScanRange, type ScanWindow } from './scan-window.js';
import { type AnalyticsScope, assertScope, foldedThroughId, inOneSnapshot } from './scope.js';
import { inTimeZone, resolveTimeZone } from './time-zones.js';

export const BREAKDOWN_DIMENSIONS = ['device', 'os', 'browser'] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export interface BreakdownEntry {
  /** The recorded value (`mobile`, `iOS`, `Mobile Safari`, `unknown`…); for the "other" entry, `other`. */
  value: string;
  scans: number;
  /** Of those, visitors' first scans of a code that UTC day. */
  uniqueScans: number;
  /** True for the entry that sums every value below the top ones. */
  other: boolean;
}

export interface ScanBreakdowns extends ScanWindow {
  /** Scans in the range; each dimension's entries add up to it. */
  total: number;
  device: BreakdownEntry[];
  os: BreakdownEntry[];
  browser: BreakdownEntry[];
  /** The filters the numbers are narrowed by (none: every scan). */
  filters: ScanFilters;
}

export interface ScanBreakdownsInput {
  scope: AnalyticsScope;
  range: ScanRange;
  timeZone?: string | null;
  now?: Date;
  /** Values shown per dimension before the rest is summed as "other" (default 5). */
  top?: number;
  /** Narrows every table to scans matching all of these. */
  filters?: ScanFilters;
}

export const DEFAULT_BREAKDOWN_TOP = 5;

/**
 * Human scans by device, OS and browser over the same window as `scanTimeSeries` (same range, zone and now give
 * the same total). 404 for a code of another account.
 */
export async function scanBreakdowns(db: Db, input: ScanBreakdownsInput): Promise<ScanBreakdowns> {
  const now = input.now ?? new Date();
  const top = input.top ?? DEFAULT_BREAKDOWN_TOP;
  return inTimeZone(resolveTimeZone(input.timeZone), (timeZone) =>
    inOneSnapshot(db, async (snapshot) => {
      await assertScope(snapshot, input.scope);
      const watermark = await foldedThroughId(snapshot);
      const { window, hours } = await resolveWindow(snapshot, input.scope, watermark, { range: input.range, timeZone, now });
      const filters = input.filters ?? {};
      const { rows } = await sql<{ dimension: BreakdownDimension; value: string; scans: number; uniqueScans: number }>`
        with hour_rows as (${scopeHourRows(input.scope, watermark, hours, { filters })}),
        -- One pass over the rows down to a few dozen combinations, then the three breakdowns from those.
        combinations as (
          select device, os, browser, sum(scans) as scans, sum(unique_scans) as unique_scans
          from hour_rows group by device, os, browser
        )
        select case when grouping(device) = 0 then 'device' when grouping(os) = 0 then 'os' else 'browser' end as dimension,
               coalesce(device, os, browser) as value, sum(scans)::bigint as scans, sum(unique_scans)::bigint as "uniqueScans"
        from combinations
        group by grouping sets ((device), (os), (browser))`.execute(snapshot);
      const of = (dimension: BreakdownDimension) =>
        topWithOther(rows.filter((row) => row.dimension === dimension).map(({ value, scans, uniqueScans }) => ({ value, scans, uniqueScans })), top);
      const total = rows.filter((row) => row.dimension === 'device').reduce((sum, row) => sum + row.scans, 0);
      return { ...window, total, device: of('device'), os: of('os'), browser: of('browser'), filters };
    }),
  );
}

/**
 * The `top` values with the most scans (ties by name), and one "other" entry summing the rest. A single value
 * left over is shown as itself: "other" standing for one value would hide its name for nothing.
 */
export function topWithOther<T extends { value: string; scans: number; uniqueScans?: number }>(
  entries: readonly T[],
  top: number,
): Array<T & BreakdownEntry> {
  const sorted = [...entries]
    .filter((entry) => entry.scans > 0)
    .sort((a, b) => b.scans - a.scans || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  const shown = sorted.length <= top + 1 ? sorted : sorted.slice(0, Math.max(0, top));
  const rest = sorted.slice(shown.length);
  const result: Array<T & BreakdownEntry> = shown.map((entry) => ({ ...entry, uniqueScans: entry.uniqueScans ?? 0, other: false }));
  if (rest.length > 0) {
    const other = {
      value: 'other',
      scans: rest.reduce((sum, entry) => sum + entry.scans, 0),
      uniqueScans: rest.reduce((sum, entry) => sum + (entry.uniqueScans ?? 0), 0),
      other: true,
    };
    // "Other" stands for many entries: it has none of their own fields (a place's country).
    result.push(other as T & BreakdownEntry);
  }
  return result;
}

import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { type BreakdownEntry, DEFAULT_BREAKDOWN_TOP, topWithOther } from './breakdowns.js';
import { scopeHourRows } from './hour-rows.js';
import type { ScanFilters } from './scan-filters.js';
import { resolveWindow, type ScanRange, type ScanWindow } from './scan-window.js';
import { type AnalyticsScope, assertScope, foldedThroughId, inOneSnapshot } from './scope.js';
import { inTimeZone, resolveTimeZone } from './time-zones.js';

/** A place: `value` is its name, with the country (and for a city the region) it lies in (not on "other"). */
export interface PlaceEntry extends BreakdownEntry {
  country?: string;
  region?: string;
}

export interface AudienceBreakdowns extends ScanWindow {
  /** Scans in the range (matching the filters); each list adds up to it (countries, languages, referrers). */
  total: number;
  /**
   * Every country with scans, most first; `value` is the ISO 3166-1 alpha-2 code, '' for scans from an address the
   * IP database does not place (private, unknown, or recorded before countries were). Not cut off: the map colours
   * them all.
   */
  countries: BreakdownEntry[];
  /** The top regions and cities with scans ('' entries left out: most databases have countries only). */
  regions: PlaceEntry[];
  cities: PlaceEntry[];
  /** Primary language subtags (`de`), '' when the phone sent none we could read. */
  languages: BreakdownEntry[];
  /** Referrer hosts, '' for scans whose phone sent none (most: a camera app sends no Referer). */
  referrers: BreakdownEntry[];
  filters: ScanFilters;
}

export interface AudienceBreakdownsInput {
  scope: AnalyticsScope;
  range: ScanRange;
  timeZone?: string | null;
  now?: Date;
  /** Entries shown per list (regions, cities, languages, referrers) before the rest is "other" (default 10). */
  top?: number;
  filters?: ScanFilters;
}

export const DEFAULT_AUDIENCE_TOP = 2 * DEFAULT_BREAKDOWN_TOP;

type Dimension = 'country' | 'region' | 'city' | 'language' | 'referrer';

interface Row {
  dimension: Dimension;
  country: string | null;
  region: string | null;
  city: string | null;
  language: string | null;
  referrer: string | null;
  scans: number;
  uniqueScans: number;
}

/**
 * Where the range's human scans came from, in which language, and from which referrer: the rollup by every
 * dimension (plus the scans since its last fold), over the same window as `scanTimeSeries` with the same range,
 * zone, now and filters. 404 for a code of another account.
 */
export async function audienceBreakdowns(db: Db, input: AudienceBreakdownsInput): Promise<AudienceBreakdowns> {
  const now = input.now ?? new Date();
  const top = input.top ?? DEFAULT_AUDIENCE_TOP;
  const filters = input.filters ?? {};
  return inTimeZone(resolveTimeZone(input.timeZone), (timeZone) =>
    inOneSnapshot(db, async (snapshot) => {
      await assertScope(snapshot, input.scope);
      const watermark = await foldedThroughId(snapshot);
      const { window, hours } = await resolveWindow(snapshot, input.scope, watermark, { range: input.range, timeZone, now });
      const { rows } = await sql<Row>`
        with hour_rows as (${scopeHourRows(input.scope, watermark, hours, { filters, audience: true })}),
        -- Hours and kinds of phone summed away first, by hashing: the lists below read a few hundred combinations.
        -- Materialized, or the planner sorts every row for the grouping sets (an external sort of 885,000 rows,
        -- half of the 2.6 s the bench's busy code took for "all").
        combinations as materialized (
          select country, region, city, language, referrer_host, sum(scans) as scans, sum(unique_scans) as unique_scans
          from hour_rows group by 1, 2, 3, 4, 5
        )
        select case when grouping(city) = 0 then 'city' when grouping(region) = 0 then 'region'
                    when grouping(country) = 0 then 'country' when grouping(language) = 0 then 'language'
                    else 'referrer' end as dimension,
               country, region, city, language, referrer_host as referrer,
               sum(scans)::bigint as scans, sum(unique_scans)::bigint as "uniqueScans"
        from combinations
        group by grouping sets ((country), (country, region), (country, region, city), (language), (referrer_host))`.execute(snapshot);
      const of = (dimension: Dimension) => rows.filter((row) => row.dimension === dimension);
      const entry = (row: Row, value: string | null) => ({ value: value ?? '', scans: row.scans, uniqueScans: row.uniqueScans });
      const countries = topWithOther(of('country').map((row) => entry(row, row.country)), Number.MAX_SAFE_INTEGER);
      const places = (dimension: 'region' | 'city') =>
        topWithOther(
          of(dimension)
            .filter((row) => row[dimension] !== null)
            .map((row) => ({
              ...entry(row, row[dimension]),
              country: row.country ?? '',
              ...(dimension === 'city' && row.region !== null ? { region: row.region } : {}),
            })),
          top,
        ) as PlaceEntry[];
      return {
        ...window,
        total: countries.reduce((sum, row) => sum + row.scans, 0),
        countries,
        regions: places('region'),
        cities: places('city'),
        languages: topWithOther(of('language').map((row) => entry(row, row.language)), top),
        referrers: topWithOther(of('referrer').map((row) => entry(row, row.referrer)), top),
        filters,
      };
    }),
  );
}

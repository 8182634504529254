import { type RawBuilder, sql } from 'kysely';
import { FILTER_KEYS, hasFilters, type ScanFilters } from './scan-filters.js';
import type { AnalyticsScope } from './scope.js';

export const HOUR_MS = 3_600_000;

/** Which hours to read: [fromHour, toHour), both on whole UTC hours. */
export interface HourWindow {
  fromHour: Date;
  toHour: Date;
}

/**
 * Rows `(hour, device, os, browser, scans, unique_scans)` of the scope within the window: the rollup up to the
 * watermark plus the raw scan groups above it, each counted in its UTC hour (a group's times lie in one second), so
 * a scan lands in the same bucket before and after it is folded. The tail is read through the primary key
 * (`id > watermark`): it holds only the seconds since the last fold, whatever the code's lifetime total. Must run in
 * the snapshot the watermark was read in (inOneSnapshot).
 *
 * Unfiltered, the rows come from the rollup by kind of phone (scan_hourly, a few rows per hour); with filters, or
 * when `audience` asks for the columns country, region, city, language and referrer_host too, from the rollup by
 * every dimension (scan_hourly_audience), which has many more.
 */
export function scopeHourRows(
  scope: AnalyticsScope,
  watermark: number,
  window: HourWindow,
  options: { filters?: ScanFilters; audience?: boolean } = {},
): RawBuilder<unknown> {
  const { fromHour, toHour } = window;
  const filters = options.filters ?? {};
  const wide = options.audience === true || hasFilters(filters);
  const audienceColumns = wide ? sql`, country, region, city, language, referrer_host` : sql``;
  const groupAudience = wide ? sql`, s.country, s.region, s.city, s.language, s.referrer_host` : sql``;
  const uniqueOfGroup = sql`case when s.is_unique then coalesce(cardinality(s.times), 1) else 0 end`;
  const rolled = sql`hour, device, os, browser${audienceColumns}, scans, unique_scans`;
  const tail = sql`date_trunc('hour', s.first_at, 'UTC') as hour, s.device, s.os, s.browser${groupAudience},
    coalesce(cardinality(s.times), 1) as scans, ${uniqueOfGroup} as unique_scans`;
  if (scope.codeId !== undefined) {
    return sql`
      select ${rolled} from ${sql.table(wide ? 'scan_hourly_audience' : 'scan_hourly')} r
      where qr_code_id = ${scope.codeId} and hour >= ${fromHour} and hour < ${toHour}${filterConditions(filters, 'r')}
      union all
      select ${tail} from scan_groups s
      where s.id > ${watermark} and s.qr_code_id = ${scope.codeId} and s.first_at >= ${fromHour} and s.first_at < ${toHour}${filterConditions(filters, 's')}`;
  }
  return sql`
    select ${rolled} from ${sql.table(wide ? 'account_scan_hourly_audience' : 'account_scan_hourly')} r
    where account_id = ${scope.accountId} and hour >= ${fromHour} and hour < ${toHour}${filterConditions(filters, 'r')}
    union all
    select ${tail}
    from scan_groups s join qr_codes c on c.id = s.qr_code_id
    where s.id > ${watermark} and c.account_id = ${scope.accountId} and s.first_at >= ${fromHour} and s.first_at < ${toHour}${filterConditions(filters, 's')}`;
}

/** ` and alias.country = … and …` for each filter given (nothing for none). */
export function filterConditions(filters: ScanFilters, alias: string): RawBuilder<unknown> {
  const conditions = FILTER_KEYS.filter((key) => filters[key] !== undefined).map(
    (key) => sql` and ${sql.ref(`${alias}.${key}`)} = ${filters[key]!}`,
  );
  return sql.join(conditions, sql``);
}

export function floorToHour(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

export function ceilToHour(at: Date): Date {
  return new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
}

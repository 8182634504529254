import { type RawBuilder, sql } from 'kysely';
import type { AnalyticsScope } from './scope.js';

export const HOUR_MS = 3_600_000;

/** Which hours to read: [fromHour, toHour), both on whole UTC hours. */
export interface HourWindow {
  fromHour: Date;
  toHour: Date;
}

/**
 * Rows `(hour, device, os, browser, scans)` of the scope within the window: the rollup up to the watermark plus
 * the raw scan groups above it, each counted in its UTC hour (a group's times lie in one second), so a scan lands
 * in the same bucket before and after it is folded. The tail is read through the primary key (`id > watermark`): it holds only the seconds since the last
 * fold, whatever the code's lifetime total. Must run in the snapshot the watermark was read in (inOneSnapshot).
 */
export function scopeHourRows(scope: AnalyticsScope, watermark: number, window: HourWindow): RawBuilder<unknown> {
  const { fromHour, toHour } = window;
  if (scope.codeId !== undefined) {
    return sql`
      select hour, device, os, browser, scans from scan_hourly
      where qr_code_id = ${scope.codeId} and hour >= ${fromHour} and hour < ${toHour}
      union all
      select date_trunc('hour', first_at, 'UTC'), device, os, browser, coalesce(cardinality(times), 1) from scan_groups
      where id > ${watermark} and qr_code_id = ${scope.codeId} and first_at >= ${fromHour} and first_at < ${toHour}`;
  }
  return sql`
    select hour, device, os, browser, scans from account_scan_hourly
    where account_id = ${scope.accountId} and hour >= ${fromHour} and hour < ${toHour}
    union all
    select date_trunc('hour', s.first_at, 'UTC'), s.device, s.os, s.browser, coalesce(cardinality(s.times), 1)
    from scan_groups s join qr_codes c on c.id = s.qr_code_id
    where s.id > ${watermark} and c.account_id = ${scope.accountId} and s.first_at >= ${fromHour} and s.first_at < ${toHour}`;
}

export function floorToHour(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

export function ceilToHour(at: Date): Date {
  return new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
}

import type { Request } from 'express';
import {
  type FilterKey,
  filterParams,
  type IgnoredFilter,
  parseScanFilters,
  type ScanFilters,
} from '../../analytics/scan-filters.js';
import { parseScanRange, type ScanRange } from '../../analytics/scan-ranges.js';
import { requestedTimeZone, viewerTimeZone } from '../shared/viewer-time-zone.js';

/** What an analytics page is asked for: the range, the zone its buckets and times are shown in, and its filters. */
export interface AnalyticsQuery {
  range: ScanRange;
  /** An IANA zone the service accepts (UTC when none or a bad one was given). */
  timeZone: string;
  /** The zone given in the address, kept in the page's links so switching the range keeps it. */
  tzParam?: string;
  /** `?country=DE&device=mobile…`: every number of the page is narrowed to them (kept in every link). */
  filters: ScanFilters;
  /** Filter values in the address that are not ones (the page says it left them out). */
  ignored: IgnoredFilter[];
}

/**
 * `?range=` (anything unknown: the default range), the zone from `?tz=`, else from the `qroute_tz` cookie that
 * assets/app.js sets from the browser, else UTC, and the filters. All validated here: anyone can send anything.
 */
export function readAnalyticsQuery(req: Request): AnalyticsQuery {
  const range = parseScanRange(req.query.range);
  const given = requestedTimeZone(req);
  const timeZone = viewerTimeZone(req);
  const { filters, ignored } = parseScanFilters(req.query as Record<string, unknown>);
  return { range, timeZone, tzParam: given === undefined ? undefined : timeZone, filters, ignored };
}

/** The query string of a link to `range` (the zone and the filters kept). */
export function analyticsSearch(query: AnalyticsQuery, range: ScanRange, extra: Record<string, string> = {}): string {
  return searchOf(query, range, query.filters, extra);
}

/** The same page with one filter set to `value`, or removed when `value` is undefined. */
export function filteredSearch(query: AnalyticsQuery, key: FilterKey, value: string | undefined, extra: Record<string, string> = {}): string {
  return searchOf(query, query.range, { ...query.filters, [key]: value }, extra);
}

/** The same page without any filter. */
export function unfilteredSearch(query: AnalyticsQuery): string {
  return searchOf(query, query.range, {}, {});
}

/** Only the filters (for the CSV of the filtered page); '' when there are none. */
export function filterSearch(filters: ScanFilters): string {
  const params = new URLSearchParams(filterParams(filters));
  return params.size > 0 ? `?${params.toString()}` : '';
}

function searchOf(query: AnalyticsQuery, range: ScanRange, filters: ScanFilters, extra: Record<string, string>): string {
  const params = new URLSearchParams({ ...extra, range });
  if (query.tzParam) params.set('tz', query.tzParam);
  for (const [key, value] of filterParams(filters)) params.set(key, value);
  return `?${params.toString()}`;
}

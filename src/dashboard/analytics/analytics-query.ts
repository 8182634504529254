import type { Request } from 'express';
import { parseScanRange, type ScanRange } from '../../analytics/index.js';
import { requestedTimeZone, viewerTimeZone } from '../shared/viewer-time-zone.js';

/** What an analytics page is asked for: the range and the zone its buckets and times are shown in. */
export interface AnalyticsQuery {
  range: ScanRange;
  /** An IANA zone the service accepts (UTC when none or a bad one was given). */
  timeZone: string;
  /** The zone given in the address, kept in the page's links so switching the range keeps it. */
  tzParam?: string;
}

/**
 * `?range=` (anything unknown: the default range) and the zone from `?tz=`, else from the `qroute_tz` cookie that
 * assets/app.js sets from the browser, else UTC. Both are validated here: anyone can send anything.
 */
export function readAnalyticsQuery(req: Request): AnalyticsQuery {
  const range = parseScanRange(req.query.range);
  const given = requestedTimeZone(req);
  const timeZone = viewerTimeZone(req);
  return { range, timeZone, tzParam: given === undefined ? undefined : timeZone };
}

/** The query string of a link to `range` (the zone kept when the address named one). */
export function analyticsSearch(query: AnalyticsQuery, range: ScanRange, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...extra, range });
  if (query.tzParam) params.set('tz', query.tzParam);
  return `?${params.toString()}`;
}

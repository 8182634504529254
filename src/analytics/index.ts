/**
 * Scan analytics for the dashboard: lifetime totals, scans over time and breakdowns for one code or a whole
 * account, and a streamed CSV export. Pages call these; none of them writes.
 *
 *   const scope = { accountId, codeId };                       // omit codeId for the whole account
 *   await scanTotals(db, scope);                               // { total, human, bot }
 *   await scanTimeSeries(db, { scope, range: '7d', timeZone }); // zero-filled buckets in the viewer's zone
 *   await scanBreakdowns(db, { scope, range: '7d', timeZone }); // device / os / browser, top 5 + "other"
 *   Readable.from(await exportScansCsv(db, scope)).pipe(res);  // CSV, 5,000 records per chunk
 *   await audienceBreakdowns(db, { scope, range: '7d', timeZone }); // countries, regions, cities, languages, referrers
 *   await scansByWeekHour(db, { scope, range: '7d', timeZone });    // weekday × hour of day in the viewer's zone
 *   await rankedCodes(db, { accountId, range: '7d', timeZone });    // the account's most scanned codes
 *
 * Each takes `filters` ({ country, device, os, browser, language }, parseScanFilters) that narrow every number.
 *
 * A `codeId` that is not a live code of the account rejects with the API's 404 `not_found` (an ApiError).
 * Numbers are exact and current: an hourly rollup (scan-rollup.ts, folded every few seconds by rollup-job.ts)
 * plus the scans recorded since its last fold. Only human scans have rows; bots are counted in the totals only.
 */
export {
  type AudienceBreakdowns,
  audienceBreakdowns,
  type AudienceBreakdownsInput,
  DEFAULT_AUDIENCE_TOP,
  type PlaceEntry,
} from './audience-breakdowns.js';
export { type BreakdownDimension, type BreakdownEntry, DEFAULT_BREAKDOWN_TOP, type ScanBreakdowns, scanBreakdowns, type ScanBreakdownsInput } from './breakdowns.js';
export { createScanRollupJob, DEFAULT_ROLLUP_INTERVAL_MS, type ScanRollupJob } from './rollup-job.js';
export { ACCOUNT_EXPORT_COLUMNS, CODE_EXPORT_COLUMNS, EXPORT_PAGE_SIZE, exportScansCsv } from './scan-export.js';
export { DEFAULT_RANKED_CODES, type RankedCode, type RankedCodes, rankedCodes, type RankedCodesInput } from './ranked-codes.js';
export {
  FILTER_KEYS,
  FILTERABLE_DEVICES,
  filterParams,
  type FilterKey,
  hasFilters,
  type IgnoredFilter,
  parseScanFilters,
  type ScanFilters,
} from './scan-filters.js';
export { foldScans, type FoldResult } from './scan-rollup.js';
export { type BucketSize, DEFAULT_SCAN_RANGE, parseScanRange, SCAN_RANGES, type ScanRange, type ScanWindow } from './scan-window.js';
export { type AnalyticsScope } from './scope.js';
export { type ScanBucket, type ScanTimeSeries, scanTimeSeries, type ScanTimeSeriesInput } from './time-series.js';
export { FALLBACK_TIME_ZONE, resolveTimeZone } from './time-zones.js';
export { type ScanTotals, scanTotals } from './totals.js';
export { scansByWeekHour, type WeekHours, type WeekHoursInput } from './week-hours.js';

import {
  type AnalyticsScope,
  audienceBreakdowns,
  rankedCodes,
  scanBreakdowns,
  scansByWeekHour,
  scanTimeSeries,
  scanTotals,
} from '../../analytics/index.js';
import { RECENT_SCANS_SHOWN, recentScans } from '../../analytics/recent-scans.js';
import type { Db } from '../../db/schema/index.js';
import type { AnalyticsData } from './analytics-panel.js';
import type { AnalyticsQuery } from './analytics-query.js';

/**
 * The reads of an analytics view, side by side (each is one short query or snapshot, so the page waits for the
 * slowest, not their sum). All share `now` and the filters, so they cover the same window and the same scans; the
 * account's view also ranks its codes.
 */
export async function loadAnalytics(db: Db, scope: AnalyticsScope, query: AnalyticsQuery): Promise<AnalyticsData> {
  const now = new Date();
  const { filters } = query;
  const window = { scope, range: query.range, timeZone: query.timeZone, now, filters };
  const [totals, series, breakdowns, audience, weekHours, ranked, recent] = await Promise.all([
    scanTotals(db, scope, filters),
    scanTimeSeries(db, window),
    scanBreakdowns(db, window),
    audienceBreakdowns(db, window),
    scansByWeekHour(db, window),
    scope.codeId === undefined ? rankedCodes(db, { accountId: scope.accountId, range: query.range, timeZone: query.timeZone, now, filters }) : undefined,
    recentScans(db, scope, RECENT_SCANS_SHOWN, filters),
  ]);
  return { totals, series, breakdowns, audience, weekHours, ranked, recent, ignoredFilters: query.ignored };
}

import { type AnalyticsScope, scanBreakdowns, scanTimeSeries, scanTotals } from '../../analytics/index.js';
import { recentScans } from '../../analytics/recent-scans.js';
import type { Db } from '../../db/schema/index.js';
import type { AnalyticsData } from './analytics-panel.js';
import type { AnalyticsQuery } from './analytics-query.js';

/**
 * The four reads of an analytics view, side by side (each is one short query or snapshot, so the page waits for
 * the slowest, not their sum). Series and breakdowns share `now`, so they cover the same window.
 */
export async function loadAnalytics(db: Db, scope: AnalyticsScope, query: AnalyticsQuery): Promise<AnalyticsData> {
  const now = new Date();
  const window = { scope, range: query.range, timeZone: query.timeZone, now };
  const [totals, series, breakdowns, recent] = await Promise.all([
    scanTotals(db, scope),
    scanTimeSeries(db, window),
    scanBreakdowns(db, window),
    recentScans(db, scope),
  ]);
  return { totals, series, breakdowns, recent };
}

import type { RequestHandler } from 'express';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { AccountAnalyticsPage } from './account-analytics-page.js';
import { sendPage } from '../shared/render.js';
import { analyticsSearch, readAnalyticsQuery } from './analytics-query.js';
import { loadAnalytics } from './load-analytics.js';

/** GET /analytics[?range=7d&tz=Europe/Berlin] — the whole account's scans; owners and members alike. */
export function showAccountAnalytics(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const query = readAnalyticsQuery(req);
    const data = await loadAnalytics(deps.db, { accountId: sessionOf(res).user.accountId }, query);
    sendPage(
      res,
      <AccountAnalyticsPage context={pageContext(res)} data={data} rangeHref={(range) => `/analytics${analyticsSearch(query, range)}`} />,
    );
  };
}

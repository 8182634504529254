import type { RequestHandler } from 'express';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { AccountAnalyticsPage } from './account-analytics-page.js';
import { sendPage } from '../shared/render.js';
import { staleReadsOf } from '../shared/stale-reads.js';
import { analyticsSearch, filteredSearch, filterSearch, readAnalyticsQuery, unfilteredSearch } from './analytics-query.js';
import { loadAnalytics } from './load-analytics.js';

/** GET /analytics[?range=7d&tz=Europe/Berlin&country=DE…] — the whole account's scans; owners and members alike. */
export function showAccountAnalytics(_deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const query = readAnalyticsQuery(req);
    const accountId = sessionOf(res).user.accountId;
    const data = await staleReadsOf(res).read((db) => loadAnalytics(db, { accountId }, query));
    sendPage(
      res,
      <AccountAnalyticsPage
        context={pageContext(res)}
        data={data}
        links={{
          range: (range) => ({ href: `/analytics${analyticsSearch(query, range)}` }),
          filter: (key, value) => `/analytics${filteredSearch(query, key, value)}`,
          removeFilter: (key) => `/analytics${filteredSearch(query, key, undefined)}`,
          clearFilters: `/analytics${unfilteredSearch(query)}`,
          csv: `/analytics/scans.csv${filterSearch(query.filters)}`,
          codeAnalytics: (codeId) => `/codes/${encodeURIComponent(codeId)}/analytics${analyticsSearch(query, query.range)}`,
        }}
      />,
    );
  };
}

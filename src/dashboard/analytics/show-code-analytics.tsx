import type { RequestHandler } from 'express';
import { getQrCode } from '../../codes/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import type { AnalyticsLinks } from './analytics-panel.js';
import { CodeAnalyticsPage, CodeAnalyticsSection, type CodeAnalyticsProps } from './code-analytics-page.js';
import { sendFragment, sendPage } from '../shared/render.js';
import { analyticsSearch, filteredSearch, filterSearch, readAnalyticsQuery, unfilteredSearch } from './analytics-query.js';
import { loadAnalytics } from './load-analytics.js';

/**
 * GET /codes/:id/analytics[?range=…&country=DE…] — one code's analytics as a page; with `?fragment=1` only the
 * panel the code's page loads with htmx. Another account's code (or a deleted one) is a 404 either way.
 */
export function showCodeAnalytics(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const accountId = sessionOf(res).user.accountId;
    const id = String(req.params.id);
    const query = readAnalyticsQuery(req);
    // The code first: its name heads the page, and a code of another account stops here with a 404.
    const code = await getQrCode(deps.db, { accountId, id });
    const data = await loadAnalytics(deps.db, { accountId, codeId: code.id }, query);
    const base = `/codes/${encodeURIComponent(code.id)}/analytics`;
    const pageLinks: AnalyticsLinks = {
      range: (range) => ({ href: `${base}${analyticsSearch(query, range)}` }),
      filter: (key, value) => `${base}${filteredSearch(query, key, value)}`,
      removeFilter: (key) => `${base}${filteredSearch(query, key, undefined)}`,
      clearFilters: `${base}${unfilteredSearch(query)}`,
      csv: `/codes/${encodeURIComponent(code.id)}/scans.csv${filterSearch(query.filters)}`,
    };
    const props: CodeAnalyticsProps = {
      code,
      data,
      pageLinks,
      panelLinks: {
        ...pageLinks,
        range: (range) => ({
          href: `${base}${analyticsSearch(query, range)}`,
          hxGet: `${base}${analyticsSearch(query, range, { fragment: '1' })}`,
          hxTarget: '#code-analytics',
        }),
      },
      pageHref: `${base}${analyticsSearch(query, query.range)}`,
    };
    if (req.query.fragment === '1') sendFragment(res, <CodeAnalyticsSection {...props} />);
    else sendPage(res, <CodeAnalyticsPage context={pageContext(res)} {...props} />);
  };
}

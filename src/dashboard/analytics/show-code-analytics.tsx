import type { RequestHandler } from 'express';
import { routedScans } from '../../analytics/routed-scans.js';
import { getQrCode } from '../../codes/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import type { AnalyticsLinks } from './analytics-panel.js';
import { CodeAnalyticsPage, CodeAnalyticsSection, type CodeAnalyticsProps } from './code-analytics-page.js';
import { sendFragment, sendPage } from '../shared/render.js';
import { staleReadsOf } from '../shared/stale-reads.js';
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
    const fragment = req.query.fragment === '1';
    // Scans per rule and variant: for a routed code's page only (they read the period's scan groups, see routed-scans.ts).
    const reads = staleReadsOf(res);
    const routedQuery = !fragment && code.routing
      ? reads.read((db) => routedScans(db, { scope: { accountId, codeId: code.id }, range: query.range, timeZone: query.timeZone, now: new Date(), filters: query.filters }))
      : undefined;
    const [data, routed] = await Promise.all([reads.read((db) => loadAnalytics(db, { accountId, codeId: code.id }, query)), routedQuery]);
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
    if (fragment) sendFragment(res, <CodeAnalyticsSection {...props} />);
    else sendPage(res, <CodeAnalyticsPage context={pageContext(res)} {...props} routed={routed && { counts: routed, range: query.range }} />);
  };
}

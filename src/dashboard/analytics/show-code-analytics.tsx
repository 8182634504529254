import type { RequestHandler } from 'express';
import { getQrCode } from '../../codes/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { CodeAnalyticsPage, CodeAnalyticsSection, type CodeAnalyticsProps } from './code-analytics-page.js';
import { sendFragment, sendPage } from '../shared/render.js';
import { analyticsSearch, readAnalyticsQuery } from './analytics-query.js';
import { loadAnalytics } from './load-analytics.js';

/**
 * GET /codes/:id/analytics — one code's analytics as a page; with `?fragment=1` only the panel the code's page
 * loads with htmx. Another account's code (or a deleted one) is a 404 either way.
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
    const props: CodeAnalyticsProps = {
      code,
      data,
      pageHref: (range) => `${base}${analyticsSearch(query, range)}`,
      panelHref: (range) => `${base}${analyticsSearch(query, range, { fragment: '1' })}`,
    };
    if (req.query.fragment === '1') sendFragment(res, <CodeAnalyticsSection {...props} />);
    else sendPage(res, <CodeAnalyticsPage context={pageContext(res)} {...props} />);
  };
}

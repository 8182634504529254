import type { RequestHandler } from 'express';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { OverviewPage } from './overview-page.js';
import { sendPage } from '../shared/render.js';
import { noticeFor } from './notices.js';
import { loadOverview } from './overview-data.js';

/** GET /api-and-webhooks: keys, the webhook, the latest deliveries and the guide. */
export function showOverview(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const data = await loadOverview(deps, res);
    sendPage(res, <OverviewPage context={pageContext(res)} data={data} extras={{ notice: noticeFor(req.query.done) }} />);
  };
}

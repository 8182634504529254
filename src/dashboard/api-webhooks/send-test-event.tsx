import type { RequestHandler } from 'express';
import { isHtmx, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DeliveryLog } from './overview-page.js';
import { AttemptOutcomeMessage } from './test-outcome.js';
import { sendFragment } from '../shared/render.js';
import { attemptFromDashboard } from './attempt-now.js';
import { loadRecentDeliveries } from './overview-data.js';

/**
 * POST /api-and-webhooks/webhook/test: sends a `webhook.test` event now (the CLI's `webhook test`). htmx shows the
 * outcome beside the button; without JavaScript the delivery's page shows the attempt.
 */
export function sendTestEvent(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const accountId = sessionOf(res).user.accountId;
    const outcome = await attemptFromDashboard(deps, { testForAccount: accountId });
    if (isHtmx(req)) {
      // The log below is refreshed in the same answer, so the new delivery shows there too.
      const recent = await loadRecentDeliveries(deps.db, accountId);
      sendFragment(res, [<AttemptOutcomeMessage outcome={outcome} />, <DeliveryLog items={recent.items} more={recent.more} outOfBand />]);
      return;
    }
    res.redirect(303, `/api-and-webhooks/deliveries/${outcome.deliveryId}`);
  };
}

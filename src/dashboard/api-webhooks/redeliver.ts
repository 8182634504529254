import type { RequestHandler } from 'express';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { attemptFromDashboard } from './attempt-now.js';
import { withNotice } from './notices.js';
import { accountDelivery } from './show-delivery.js';

/**
 * POST /api-and-webhooks/deliveries/:deliveryId/redeliver: one more attempt now, with the same id and body (the
 * CLI's `webhook redeliver`); the delivery's page then lists it. The id is checked against the account first.
 */
export function redeliverAction(deps: DashboardDependencies): RequestHandler<{ deliveryId: string }> {
  return async (req, res) => {
    const delivery = await accountDelivery(deps, req.params.deliveryId, sessionOf(res).user.accountId);
    await attemptFromDashboard(deps, { deliveryId: delivery.id });
    res.redirect(303, withNotice(`/api-and-webhooks/deliveries/${delivery.id}`, 'redelivered'));
  };
}

import type { RequestHandler } from 'express';
import { DeliveryNotFoundError, getDelivery } from '../../webhooks/delivery-service.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { DeliveryPage } from './delivery-page.js';
import { sendPage } from '../shared/render.js';
import { noticeFor } from './notices.js';

/** Another account's delivery (or no such id) reads as not found, with the same page as any other 404. */
export async function accountDelivery(deps: DashboardDependencies, deliveryId: string, accountId: string) {
  try {
    return await getDelivery(deps.db, deliveryId, accountId);
  } catch (error) {
    if (error instanceof DeliveryNotFoundError) throw new DashboardError(404, 'Not found', 'There is nothing here, or it belongs to another account.');
    throw error;
  }
}

/** GET /api-and-webhooks/deliveries/:deliveryId: every attempt, and "Redeliver". */
export function showDelivery(deps: DashboardDependencies): RequestHandler<{ deliveryId: string }> {
  return async (req, res) => {
    const delivery = await accountDelivery(deps, req.params.deliveryId, sessionOf(res).user.accountId);
    sendPage(res, <DeliveryPage context={pageContext(res)} delivery={delivery} notice={noticeFor(req.query.done)} />);
  };
}

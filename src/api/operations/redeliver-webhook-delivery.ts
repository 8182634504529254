import type { RequestHandler } from 'express';
import { errors } from '../../errors.js';
import { DeliveryInFlightError, DeliveryNotFoundError, redeliver } from '../../webhooks/delivery-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { ResponseBody } from '../contract.js';
import { presentDelivery } from '../presenters.js';

/** Queues the delivery; a worker sends it (202), so the API never waits on a receiver. */
export function redeliverWebhookDelivery({ db }: ApiDependencies): RequestHandler<{ deliveryId: string }> {
  return async (req, res) => {
    const delivery = await redeliver(db, req.params.deliveryId, callerOf(res).accountId).catch((error: unknown) => {
      if (error instanceof DeliveryNotFoundError) throw errors.deliveryNotFound();
      if (error instanceof DeliveryInFlightError) throw errors.deliveryInProgress();
      throw error;
    });
    const body: ResponseBody<'redeliverWebhookDelivery', 202> = { data: presentDelivery(delivery) };
    res.status(202).json(body);
  };
}

import type { RequestHandler } from 'express';
import { errors } from '../../errors.js';
import { DeliveryNotFoundError, getDelivery } from '../../webhooks/delivery-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { ResponseBody } from '../contract.js';
import { presentAttempt, presentDelivery } from '../presenters.js';

export function getWebhookDelivery({ db }: ApiDependencies): RequestHandler<{ deliveryId: string }> {
  return async (req, res) => {
    const delivery = await getDelivery(db, req.params.deliveryId, callerOf(res).accountId).catch((error: unknown) => {
      throw error instanceof DeliveryNotFoundError ? errors.deliveryNotFound() : error;
    });
    const body: ResponseBody<'getWebhookDelivery', 200> = {
      data: presentDelivery(delivery),
      attempts: delivery.attempts.map(presentAttempt),
    };
    res.status(200).json(body);
  };
}

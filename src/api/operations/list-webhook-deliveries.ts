import type { RequestHandler } from 'express';
import { listDeliveries } from '../../webhooks/delivery-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { QueryParams, ResponseBody } from '../contract.js';
import { presentDelivery } from '../presenters.js';

/** Mirrors the contract's default for `limit`. */
const DEFAULT_LIMIT = 20;

export function listWebhookDeliveries({ db }: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const query = req.query as QueryParams<'listWebhookDeliveries'>;
    const page = await listDeliveries(db, callerOf(res).accountId, {
      status: query.status,
      limit: Number(query.limit ?? DEFAULT_LIMIT),
      cursor: query.cursor,
    });
    const body: ResponseBody<'listWebhookDeliveries', 200> = { data: page.data.map(presentDelivery), nextCursor: page.nextCursor };
    res.status(200).json(body);
  };
}

import type { RequestHandler } from 'express';
import { getWebhook as getSettings } from '../../webhooks/webhook-settings.js';
import { errors } from '../../errors.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { ResponseBody } from '../contract.js';
import { presentWebhook } from '../presenters.js';

export function getWebhook({ db }: ApiDependencies): RequestHandler {
  return async (_req, res) => {
    const settings = await getSettings(db, callerOf(res).accountId);
    if (!settings) throw errors.webhookNotFound();
    const body: ResponseBody<'getWebhook', 200> = { data: presentWebhook(settings) };
    res.status(200).json(body);
  };
}

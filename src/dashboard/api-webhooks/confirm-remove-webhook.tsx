import type { RequestHandler } from 'express';
import { getWebhook } from '../../webhooks/webhook-settings.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { RemoveWebhookPage } from './remove-webhook-page.js';
import { sendPage } from '../shared/render.js';

/** GET /api-and-webhooks/webhook/remove: the confirmation naming the URL (back to the section when none is set). */
export function confirmRemoveWebhook(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const webhook = await getWebhook(deps.db, sessionOf(res).user.accountId);
    if (!webhook) return res.redirect(303, '/api-and-webhooks#webhook');
    sendPage(res, <RemoveWebhookPage context={pageContext(res)} webhook={webhook} />);
  };
}

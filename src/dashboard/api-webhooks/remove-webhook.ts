import type { RequestHandler } from 'express';
import { removeWebhook, WebhookNotConfiguredError } from '../../webhooks/webhook-settings.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { withNotice } from './notices.js';

/** POST /api-and-webhooks/webhook/remove. Removing twice (two tabs) ends the same way: no webhook. */
export function removeWebhookAction(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    try {
      await removeWebhook(deps.db, sessionOf(res).user.accountId);
    } catch (error) {
      if (!(error instanceof WebhookNotConfiguredError)) throw error;
    }
    res.redirect(303, withNotice('/api-and-webhooks', 'webhook-removed', '#webhook'));
  };
}

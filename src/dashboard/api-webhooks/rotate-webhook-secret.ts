import type { RequestHandler } from 'express';
import { rotateWebhookSecret, WebhookNotConfiguredError } from '../../webhooks/webhook-settings.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { withNotice } from './notices.js';

/** POST /api-and-webhooks/webhook/rotate: a new secret; the page then shows until when the old one still signs. */
export function rotateWebhookSecretAction(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    try {
      // The new secret is not shown here: it is revealed on demand like any other time.
      await rotateWebhookSecret(deps.db, deps.box, sessionOf(res).user.accountId);
    } catch (error) {
      if (error instanceof WebhookNotConfiguredError) throw new DashboardError(409, 'No webhook is set', 'Save a webhook URL first: it gets a secret then.');
      throw error;
    }
    res.redirect(303, withNotice('/api-and-webhooks', 'secret-rotated', '#webhook'));
  };
}

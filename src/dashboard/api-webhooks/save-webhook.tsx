import type { RequestHandler } from 'express';
import { setWebhook } from '../../webhooks/webhook-settings.js';
import { WebhookUrlError } from '../../webhooks/url-guard.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { OverviewPage } from './overview-page.js';
import { sendPage } from '../shared/render.js';
import { withNotice } from './notices.js';
import { loadOverview } from './overview-data.js';

/**
 * POST /api-and-webhooks/webhook: the CLI's `webhook set` (setWebhook, the same URL guard; private addresses only
 * when the operator allows them). Saving again re-enables a disabled webhook and keeps its secret.
 */
export function saveWebhook(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const typed = formText(req.body, 'url').trim();
    try {
      await setWebhook(deps.db, deps.box, { accountId: sessionOf(res).user.accountId, url: typed, allowPrivate: deps.config.allowPrivateWebhookUrls });
    } catch (error) {
      if (!(error instanceof WebhookUrlError)) throw error;
      const data = await loadOverview(deps, res);
      const urlError = { value: typed, message: sentence(error.message) };
      sendPage(res, <OverviewPage context={pageContext(res)} data={data} extras={{ urlError }} />, 400);
      return;
    }
    res.redirect(303, withNotice('/api-and-webhooks', 'webhook-saved', '#webhook'));
  };
}

/** The guard's messages are written for logs and the CLI ("webhook URL must …"): a sentence for the page. */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return text.endsWith('.') ? text : `${text}.`;
}

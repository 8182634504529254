import type { RequestHandler } from 'express';
import { revealWebhookSecret } from '../../webhooks/webhook-settings.js';
import { isHtmx, pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { OverviewPage } from './overview-page.js';
import { SecretReveal } from './secret-reveal.js';
import { sendFragment, sendPage } from '../shared/render.js';
import { loadOverview } from './overview-data.js';

/**
 * POST /api-and-webhooks/webhook/secret: the signing secret, only when asked (a POST, so no link, prefetch or
 * history entry can show it). htmx gets the block to swap in; without JavaScript the page comes back with it.
 */
export function revealWebhookSecretAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const secret = await revealWebhookSecret(deps.db, deps.box, sessionOf(res).user.accountId);
    if (secret === undefined) throw new DashboardError(404, 'No webhook is set', 'Save a webhook URL first: its signing secret is issued then.');
    const context = pageContext(res);
    if (isHtmx(req)) {
      sendFragment(res, <SecretReveal csrfToken={context.csrfToken} secret={secret} />);
      return;
    }
    sendPage(res, <OverviewPage context={context} data={await loadOverview(deps, res)} extras={{ revealedSecret: secret }} />);
  };
}

import type { RequestHandler } from 'express';
import { createApiKey, parseApiKeyName } from '../../accounts/api-keys.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { formText } from '../shared/forms.js';
import { OverviewPage } from './overview-page.js';
import { sendPage } from '../shared/render.js';
import { apiAvailableOn, loadOverview } from './overview-data.js';

/**
 * POST /api-and-webhooks/keys: makes a key and answers with the page showing it, the only time it is ever
 * shown (no redirect: the key is not stored, so no later page could show it; sendPage forbids caching).
 */
export function createApiKeyAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const { user } = sessionOf(res);
    if (!apiAvailableOn(user.plan)) {
      throw new DashboardError(403, 'The API is not part of this plan', 'The API is part of the Business plan (39 EUR per month). Ask your operator to move this account to it.');
    }
    const typed = formText(req.body, 'name');
    const name = parseApiKeyName(typed);
    if (!name.ok) {
      const data = await loadOverview(deps, res);
      const nameError = { value: typed, message: `The name ${name.message}.` };
      sendPage(res, <OverviewPage context={pageContext(res)} data={data} extras={{ nameError }} />, 400);
      return;
    }
    const newKey = await createApiKey(deps.db, user.accountId, { name: name.name, createdByUserId: user.userId });
    const data = await loadOverview(deps, res);
    sendPage(res, <OverviewPage context={pageContext(res)} data={data} extras={{ newKey, notice: 'API key created.' }} />);
  };
}

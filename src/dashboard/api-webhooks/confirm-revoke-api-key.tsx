import type { RequestHandler } from 'express';
import { listApiKeys } from '../../accounts/api-keys.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { dashboardNotFound } from '../shared/errors.js';
import { RevokeKeyPage } from './revoke-key-page.js';
import { sendPage } from '../shared/render.js';

/** GET /api-and-webhooks/keys/:keyId/revoke: the confirmation naming the key; only this account's keys. */
export function confirmRevokeApiKey(deps: DashboardDependencies): RequestHandler<{ keyId: string }> {
  return async (req, res, next) => {
    const keys = await listApiKeys(deps.db, sessionOf(res).user.accountId);
    const key = keys.find((candidate) => candidate.id === req.params.keyId);
    if (!key) return dashboardNotFound(req, res, next);
    if (key.revokedAt) return res.redirect(303, '/api-and-webhooks#api-keys');
    sendPage(res, <RevokeKeyPage context={pageContext(res)} apiKey={key} />);
  };
}

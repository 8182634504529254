import type { RequestHandler } from 'express';
import { revokeAccountApiKey } from '../../accounts/api-keys.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { dashboardNotFound } from '../shared/errors.js';
import { withNotice } from './notices.js';

/** POST /api-and-webhooks/keys/:keyId/revoke: another account's key id is left alone and answered 404. */
export function revokeApiKeyAction(deps: DashboardDependencies): RequestHandler<{ keyId: string }> {
  return async (req, res, next) => {
    const revoked = await revokeAccountApiKey(deps.db, { accountId: sessionOf(res).user.accountId, keyId: req.params.keyId });
    if (!revoked) return dashboardNotFound(req, res, next);
    res.redirect(303, withNotice('/api-and-webhooks', 'key-revoked', '#api-keys'));
  };
}

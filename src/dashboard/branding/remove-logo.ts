import type { RequestHandler } from 'express';
import { removeBrandLogo } from '../../accounts/branding.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { brandingRedirect } from './branding-form.js';

/** POST /account/branding/logo/remove: the pages show no logo; its file is deleted. */
export function removeLogo(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    await removeBrandLogo(deps.db, sessionOf(res).user.accountId);
    res.redirect(303, brandingRedirect('logo-removed'));
  };
}

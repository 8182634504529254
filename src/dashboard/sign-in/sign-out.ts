import type { RequestHandler } from 'express';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { signOut as endSession } from '../shared/middleware.js';

/** POST /logout — ends this session only (the account page can end all of them). */
export function signOut(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    await endSession(deps, pageContext(res).session, res);
    res.redirect(303, '/login');
  };
}

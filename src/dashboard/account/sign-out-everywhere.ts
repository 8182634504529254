import type { RequestHandler } from 'express';
import { endAllSessions } from '../../people/sessions.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { signOut } from '../shared/middleware.js';

/** POST /account/sign-out-everywhere — every session of the person ends, this one too; a copied cookie dies with it. */
export function signOutEverywhere(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const session = sessionOf(res);
    await endAllSessions(deps.db, session.user.userId);
    // Already ended above; this clears the cookie.
    await signOut(deps, undefined, res);
    res.redirect(303, '/login');
  };
}

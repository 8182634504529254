import type { Request, Response } from 'express';
import { createSession } from '../../people/sessions.js';
import { pageContext, sessionLifetime, type DashboardDependencies } from '../shared/context.js';
import { cookieNames, cookiesAreSecure, setCookie } from '../shared/cookies.js';
import { signOut } from '../shared/middleware.js';

/**
 * Signs `userId` in on this browser: after a password sign-in, an accepted invitation, a password reset or a
 * sign-up. A new token every time, and the session the browser held before is ended, so a session id planted
 * before sign-in is never the one that gets signed in.
 */
export async function startSignedInSession(deps: DashboardDependencies, req: Request, res: Response, userId: string): Promise<void> {
  const secure = cookiesAreSecure(deps.config.siteUrl);
  const current = pageContext(res).session;
  if (current) await signOut(deps, current, res);
  const session = await createSession(deps.db, { userId, userAgent: req.headers['user-agent'], lifetime: sessionLifetime(deps.config) });
  setCookie(res, cookieNames(secure).session, session.token, { secure, sameSite: 'Lax', expires: session.expiresAt });
}

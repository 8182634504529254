import type { RequestHandler } from 'express';
import { endSession, findSession, type Session } from '../../people/sessions.js';
import type { AssetUrls } from './assets.js';
import { sessionLifetime, type DashboardDependencies } from './context.js';
import { clearCookie, cookieNames, cookiesAreSecure, readCookies, setCookie } from './cookies.js';
import {
  anonymousCsrfToken,
  comesFromAnotherSite,
  csrfTokensMatch,
  newAnonymousCsrfSecret,
  presentedCsrfToken,
  sessionCsrfToken,
} from './csrf.js';
import { DashboardError } from './errors.js';
import { viewerTimeZone } from './viewer-time-zone.js';

/**
 * The dashboard's URL space (first path segment). Only these requests read the session cookie or parse a form,
 * so a stray request for a path nobody serves costs no database query.
 */
export const DASHBOARD_SEGMENTS = new Set([
  '',
  'login',
  'logout',
  'codes',
  'designs',
  'imports',
  'analytics',
  'api-and-webhooks',
  'people',
  'account',
  'invitations',
  'password-reset',
  'signup',
]);

export function isDashboardPath(path: string): boolean {
  return DASHBOARD_SEGMENTS.has(firstSegment(path));
}

/** What people who are not signed in may open; everything else sends them to sign in first. */
const PUBLIC_SEGMENTS = new Set(['', 'login', 'logout', 'invitations', 'password-reset', 'signup']);

export function isPublicPath(path: string): boolean {
  return PUBLIC_SEGMENTS.has(firstSegment(path));
}

function firstSegment(path: string): string {
  return path.split('/')[1] ?? '';
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Pages carry private data and our own scripts only. */
const DASHBOARD_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Reads the session (if any), fixes the CSRF token the page will carry, and refuses any state-changing request
 * without a valid token or from another site.
 */
export function dashboardContext(deps: DashboardDependencies, assets: AssetUrls): RequestHandler {
  const secure = cookiesAreSecure(deps.config.siteUrl);
  const names = cookieNames(secure);
  const lifetime = sessionLifetime(deps.config);
  return async (req, res, next) => {
    res.setHeader('Content-Security-Policy', DASHBOARD_POLICY);
    res.setHeader('Referrer-Policy', 'same-origin');
    const cookies = readCookies(req);
    const token = cookies.get(names.session);
    let session: Session | undefined;
    if (token) session = await findSession(deps.db, token, lifetime);

    let csrfToken: string;
    if (session) {
      csrfToken = sessionCsrfToken(session.tokenHash);
    } else {
      let secret = cookies.get(names.csrf);
      if (!secret || secret.length > 100) {
        secret = newAnonymousCsrfSecret();
        setCookie(res, names.csrf, secret, { secure, sameSite: 'Strict' });
      }
      csrfToken = anonymousCsrfToken(secret);
    }
    res.locals.dashboard = { session, csrfToken, assets, path: req.path, siteUrl: deps.config.siteUrl, timeZone: viewerTimeZone(req) };

    if (UNSAFE_METHODS.has(req.method)) {
      if (comesFromAnotherSite(req, deps.config.siteUrl) || !csrfTokensMatch(csrfToken, presentedCsrfToken(req))) {
        throw new DashboardError(403, 'This form has expired', 'The page was open too long or came from elsewhere. Reload the page and try again.');
      }
    }
    next();
  };
}

/** Pages for signed-in people: others are sent to sign in (and back here afterwards). */
export const requireSignedIn: RequestHandler = (req, res, next) => {
  if (res.locals.dashboard?.session) {
    next();
    return;
  }
  const back = req.method === 'GET' ? `?next=${encodeURIComponent(req.originalUrl)}` : '';
  if (req.headers['hx-request'] === 'true') {
    res.setHeader('HX-Redirect', `/login${back}`);
    res.status(401).end();
    return;
  }
  res.redirect(303, `/login${back}`);
};

/** Owner-only sections (API & webhooks, People): members get a page that says why. */
export const requireOwner: RequestHandler = (_req, res, next) => {
  if (res.locals.dashboard?.session?.user.role === 'owner') {
    next();
    return;
  }
  throw new DashboardError(403, 'Only owners can open this section', "Ask an owner of this account if you need something changed here.");
};

/** Ends the current session (sign out) and clears its cookie. */
export async function signOut(deps: DashboardDependencies, session: Session | undefined, res: Parameters<RequestHandler>[1]): Promise<void> {
  if (session) await endSession(deps.db, session.tokenHash);
  const secure = cookiesAreSecure(deps.config.siteUrl);
  clearCookie(res, cookieNames(secure).session, secure);
}

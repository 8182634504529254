import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

/** The form field and the header (htmx sends it from `hx-headers` on <body>) that carry the token. */
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * A signed-in person's token is derived from their session (HMAC of the session token's hash), so it needs no
 * storage, dies with the session, and cannot be computed by anyone who does not hold the session cookie.
 */
export function sessionCsrfToken(sessionTokenHash: Buffer): string {
  return createHmac('sha256', sessionTokenHash).update('qroute csrf v1').digest('base64url');
}

/**
 * Forms shown before sign-in (sign-in itself, invitations, password reset, sign-up) use a double-submit token:
 * a random secret in an httpOnly SameSite=Strict cookie, and its HMAC in the form. Another site can neither read
 * the cookie nor set it, so it cannot forge the pair ("login CSRF" signs a victim into the attacker's account).
 */
export function newAnonymousCsrfSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function anonymousCsrfToken(secret: string): string {
  return createHmac('sha256', secret).update('qroute anonymous csrf v1').digest('base64url');
}

/**
 * The token a request presents, from the form body, the header, or for a file upload the query string: a
 * multipart body is read by its own route (src/dashboard/shared/multipart.ts) after this check, and a plain HTML form
 * cannot set a header, so upload forms carry it in their `action` (see `uploadAction`). The token is bound to the
 * session and never leaves the site (Referrer-Policy same-origin), and the Origin check applies as to any form.
 */
export function presentedCsrfToken(req: Request): string | undefined {
  const fromBody = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  if (typeof fromBody === 'string') return fromBody;
  const fromHeader = req.headers[CSRF_HEADER];
  if (typeof fromHeader === 'string') return fromHeader;
  if (!req.is('multipart/form-data')) return undefined;
  const fromQuery = new URLSearchParams(req.originalUrl.split('?')[1] ?? '').get(CSRF_FIELD);
  return fromQuery ?? undefined;
}

/** An upload form's `action`: its path with the CSRF token (see `presentedCsrfToken`). */
export function uploadAction(path: string, csrfToken: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${CSRF_FIELD}=${encodeURIComponent(csrfToken)}`;
}

/** Constant-time comparison; a missing or differently sized token is simply wrong. */
export function csrfTokensMatch(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Browsers send `Origin` on every cross-site POST (and `Sec-Fetch-Site`); a request that says it came from another
 * site is refused whatever its token. Absent headers (a non-browser client) fall back to the token alone.
 */
export function comesFromAnotherSite(req: Request, siteOrigin: string): boolean {
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const own = `${req.protocol}://${req.headers.host ?? ''}`;
  return origin !== siteOrigin && origin !== own;
}

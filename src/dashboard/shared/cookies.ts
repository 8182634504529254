import type { Request, Response } from 'express';

/** The cookies a request carries (first value wins, as browsers send the most specific first). */
export function readCookies(req: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index < 1) continue;
    const name = part.slice(0, index).trim();
    if (cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(index + 1).trim()));
    } catch {
      // A malformed cookie is one we did not set: ignore it.
    }
  }
  return cookies;
}

/** Cookies are Secure (and `__Host-` named) exactly when the public origin is https. */
export function cookiesAreSecure(siteUrl: string): boolean {
  return siteUrl.startsWith('https:');
}

export interface CookieNames {
  session: string;
  /** The anonymous forms' CSRF secret (sign-in, invitation, password reset, sign-up). */
  csrf: string;
}

/**
 * Over https the cookies carry the `__Host-` prefix: the browser then only accepts them Secure, for the whole site
 * and from this host, so no sibling subdomain can plant or overwrite one.
 */
export function cookieNames(secure: boolean): CookieNames {
  return secure ? { session: '__Host-qroute_session', csrf: '__Host-qroute_csrf' } : { session: 'qroute_session', csrf: 'qroute_csrf' };
}

export function setCookie(
  res: Response,
  name: string,
  value: string,
  options: { secure: boolean; sameSite: 'Lax' | 'Strict'; expires?: Date },
): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.secure) parts.push('Secure');
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  res.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(res: Response, name: string, secure: boolean): void {
  res.append('Set-Cookie', `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`);
}

import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * Headers every response carries (API, errors, health, docs, contract files, short links):
 * - `X-Content-Type-Options: nosniff`: a browser never reads a JSON error or a text body as HTML or script.
 * - `X-Frame-Options: DENY`: no page of ours can be framed (clickjacking); /docs also says so in its CSP.
 * - `Strict-Transport-Security` when the public origin is https: browsers then never try plain http, so a
 *   short link typed or scanned as http cannot be intercepted after the first visit. One year, the common
 *   minimum for preload lists; no `includeSubDomains`, since the operator's other subdomains are not ours to pin.
 */
export function securityHeaders(siteUrl: string): Readonly<Record<string, string>> {
  return Object.freeze({
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    ...(siteUrl.startsWith('https:') && { 'Strict-Transport-Security': 'max-age=31536000' }),
  });
}

export function setSecurityHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

export function securityHeadersMiddleware(headers: Readonly<Record<string, string>>): RequestHandler {
  return (_req, res, next) => {
    setSecurityHeaders(res, headers);
    next();
  };
}

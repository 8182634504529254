import { createHash, randomBytes } from 'node:crypto';

/**
 * Where each kind of link carries its token, as the last segment of the path: the one list the links are built
 * from (linkUrl) and the request log redacts (src/logger.ts), so a new kind of link is redacted by being added here.
 */
export const LINK_TOKEN_PATHS = {
  invitation: '/invitations/',
  passwordReset: '/password-reset/',
  signupConfirmation: '/signup/confirm/',
} as const;

/** The link of `kind` with `token`, under the site's URL. */
export function linkUrl(siteUrl: string, kind: keyof typeof LINK_TOKEN_PATHS, token: string): string {
  return `${siteUrl}${LINK_TOKEN_PATHS[kind]}${token}`;
}

/** 32 random bytes in base64url: 43 characters, safe in a URL path without escaping. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the tables store instead of the token, so a database dump holds no working link. */
export function hashLinkToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Rejects what cannot be one of our tokens before it reaches the database (and before hashing a megabyte). */
export function isLinkTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

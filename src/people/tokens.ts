import { createHash, randomBytes } from 'node:crypto';

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

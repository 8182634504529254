import { randomBytes } from 'node:crypto';

/** Crockford base32: no I, L, O, U, so ids and slugs survive being read aloud or retyped. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'acc' | 'key' | 'qr';

/**
 * A ULID-shaped id with a type prefix: `qr_` + 10 characters of millisecond time + 16 random characters
 * (80 bits). Ids sort by creation time, so "newest first" is "id descending" and the id can be the cursor.
 */
export function newId(prefix: IdPrefix, at: Date = new Date()): string {
  return `${prefix}_${encodeTime(at.getTime())}${randomCrockford(16)}`;
}

export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`);
}

function encodeTime(ms: number): string {
  let remaining = ms;
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD_ALPHABET[remaining % 32] + out;
    remaining = Math.floor(remaining / 32);
  }
  return out;
}

/** `length` characters, each uniformly random (32 divides 256, so masking a byte has no bias). */
export function randomCrockford(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += CROCKFORD_ALPHABET[byte & 31];
  return out;
}

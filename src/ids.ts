import { randomBytes } from 'node:crypto';

/** Crockford base32: no I, L, O, U, so ids and slugs survive being read aloud or retyped. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'acc' | 'key' | 'qr' | 'whd' | 'scb' | 'usr' | 'inv' | 'fil' | 'dsn' | 'imp';

/**
 * A ULID-shaped id with a type prefix: `qr_` + 11 characters of microsecond time + 15 random characters
 * (75 bits). Ids sort by creation time, so "newest first" is "id descending" and the id can be the cursor.
 * Microseconds from the monotonic clock keep ids of one process in creation order even within a millisecond
 * (two ids made in the same microsecond are ordered at random; one create takes far longer than that),
 * without keeping any state here.
 */
export function newId(prefix: IdPrefix, atMicros: number = nowMicros()): string {
  return `${prefix}_${encodeTime(atMicros)}${randomCrockford(15)}`;
}

/** Microseconds since the epoch, from the monotonic clock: never goes backwards within a process. */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** The millisecond timestamp of an instant from `nowMicros` (what `createdAt` shows). */
export function microsToDate(micros: number): Date {
  return new Date(Math.floor(micros / 1000));
}

export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`);
}

function encodeTime(micros: number): string {
  let remaining = micros;
  let out = '';
  for (let i = 0; i < 11; i++) {
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

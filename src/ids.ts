import { randomBytes } from 'node:crypto';

/** Crockford base32: no I, L, O, U, so ids and slugs survive being read aloud or retyped. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'acc' | 'key' | 'qr' | 'whd' | 'scb' | 'usr' | 'inv' | 'fil' | 'dsn' | 'imp' | 'rul';

/**
 * A ULID-shaped id with a type prefix: `qr_` + 11 characters of microsecond time + 15 random characters
 * (75 bits). Ids sort by creation time, so "newest first" is "id descending" and the id can be the cursor.
 * Microseconds from the monotonic clock, never the same twice (`nowMicros`), keep ids of one process in
 * creation order even within a millisecond. Ids made for a given instant (a scan's webhook delivery, stamped
 * with the scan's millisecond) are ordered at random within it.
 */
export function newId(prefix: IdPrefix, atMicros: number = nowMicros()): string {
  return `${prefix}_${encodeTime(atMicros)}${randomCrockford(15)}`;
}

let lastMicros = 0;

/**
 * Microseconds since the epoch, from the monotonic clock: within a process it never goes backwards and never
 * repeats (a call in the same microsecond as the last gets the next one), so ids made in a loop still sort.
 */
export function nowMicros(): number {
  lastMicros = Math.max(Math.floor((performance.timeOrigin + performance.now()) * 1000), lastMicros + 1);
  return lastMicros;
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

/**
 * Random bytes drawn from the CSPRNG a page at a time: one call per id cost about 1.5 µs, most of a scan's id
 * work on the redirect path. Every byte is used once.
 */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomPoolOffset = 0;

function takeRandomBytes(length: number): Buffer {
  if (length > RANDOM_POOL_BYTES) return randomBytes(length);
  if (randomPoolOffset + length > randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomPoolOffset = 0;
  }
  const bytes = randomPool.subarray(randomPoolOffset, randomPoolOffset + length);
  randomPoolOffset += length;
  return bytes;
}

/** `length` characters, each uniformly random (32 divides 256, so masking a byte has no bias). */
export function randomCrockford(length: number): string {
  const bytes = takeRandomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += CROCKFORD_ALPHABET[bytes[i]! & 31];
  return out;
}

import { randomCrockford } from '../ids.js';

export const SLUG_LENGTH = 8; // 32^8 ≈ 1.1 × 10^12 slugs: collisions are rare and retried
export const SLUG_PATTERN = /^[0-9A-HJKMNP-TV-Z]{8}$/;

export function newSlug(): string {
  return randomCrockford(SLUG_LENGTH);
}

/**
 * Slugs are stored upper-case and matched case-insensitively, so a short URL can be upper-cased to fit QR
 * alphanumeric mode. Returns undefined for anything that cannot be a slug (no lookup needed).
 */
export function normalizeSlug(raw: string): string | undefined {
  const upper = raw.toUpperCase();
  return SLUG_PATTERN.test(upper) ? upper : undefined;
}

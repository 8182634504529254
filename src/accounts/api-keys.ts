import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { sql } from 'kysely';
import { newId } from '../ids.js';
import type { Db } from '../db/schema/index.js';
import { isPlanName, PLANS, type PlanName } from './plans.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PREFIX = 'qrk_';
const RANDOM_LENGTH = 32; // 32 base62 characters ≈ 190 bits
const CHECKSUM_LENGTH = 6; // CRC32 fits in 6 base62 digits (62^6 > 2^32)
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
/** `last_used_at` is written at most this often per key, so authentication stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * An API key: `qrk_` + 32 random base62 characters + a 6-character CRC32 checksum. The checksum lets us
 * (and secret scanners) reject a mistyped or made-up key without a database lookup.
 */
export function generateApiKey(): string {
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH)) {
      // 248 = 4 × 62: bytes above it would make the first characters of the alphabet likelier.
      if (byte < 248 && random.length < RANDOM_LENGTH) random += BASE62[byte % 62];
    }
  }
  return KEY_PREFIX + random + checksum(random);
}

export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length);
  return checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

function checksum(random: string): string {
  let value = crc32(random);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export interface CreatedApiKey {
  id: string;
  accountId: string;
  /** The key itself: returned once, never stored. */
  key: string;
  prefix: string;
  lastFour: string;
  createdAt: Date;
}

export async function createApiKey(db: Db, accountId: string): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      id: newId('key'),
      account_id: accountId,
      key_hash: hashApiKey(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      last_four: key.slice(-4),
    })
    .returning(['id', 'account_id', 'prefix', 'last_four', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, accountId: row.account_id, key, prefix: row.prefix, lastFour: row.last_four, createdAt: row.created_at };
}

/** Returns the revoked key's id and time, or undefined when no such key exists. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Db, keyId: string): Promise<{ id: string; revokedAt: Date } | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', keyId)
    .returning(['id', 'revoked_at'])
    .executeTakeFirst();
  return row ? { id: row.id, revokedAt: row.revoked_at! } : undefined;
}

export type Authentication =
  | { outcome: 'authenticated'; accountId: string; keyId: string; plan: PlanName }
  | { outcome: 'invalid_key' }
  | { outcome: 'plan_without_api'; accountId: string };

/**
 * Resolves a bearer key to its account. Malformed keys are refused before touching the database; the lookup
 * is by hash, so timing says nothing about how much of a key was right.
 */
export async function authenticateApiKey(db: Db, key: string, now = new Date()): Promise<Authentication> {
  if (!isWellFormedApiKey(key)) return { outcome: 'invalid_key' };
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id as keyId', 'api_keys.last_used_at', 'accounts.id as accountId', 'accounts.plan'])
    .where('api_keys.key_hash', '=', hashApiKey(key))
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return { outcome: 'invalid_key' };
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.keyId).execute();
  }
  if (!isPlanName(row.plan) || !PLANS[row.plan].api) return { outcome: 'plan_without_api', accountId: row.accountId };
  return { outcome: 'authenticated', accountId: row.accountId, keyId: row.keyId, plan: row.plan };
}

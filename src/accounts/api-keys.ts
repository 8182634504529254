import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { sql } from 'kysely';
import { idPattern, newId } from '../ids.js';
import type { Db } from '../db/schema/index.js';
import { isPlanName, PLANS, type PlanName } from './plans.js';
import { ApiKeyNameError, parseApiKeyName } from './api-key-name.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PREFIX = 'qrk_';
const RANDOM_LENGTH = 32; // 32 base62 characters ≈ 190 bits
const CHECKSUM_LENGTH = 6; // CRC32 fits in 6 base62 digits (62^6 > 2^32)
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
/** `last_used_at` is written at most this often per key, so authentication stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;
const API_KEY_ID = idPattern('key');

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

// The name rule is pure (the dashboard's key form reads its bound), so it lives apart; re-exported for existing callers.
export { ApiKeyNameError, MAX_API_KEY_NAME_LENGTH, parseApiKeyName, type ApiKeyNameResult } from './api-key-name.js';

/**
 * Makes a key for the account. The operator's CLI passes no options; the dashboard passes the name the person
 * typed (throws ApiKeyNameError when it breaks `parseApiKeyName`) and who they are.
 */
export async function createApiKey(
  db: Db,
  accountId: string,
  options: { name?: string | null; createdByUserId?: string } = {},
): Promise<CreatedApiKey> {
  const name = parseApiKeyName(options.name);
  if (!name.ok) throw new ApiKeyNameError(name.message);
  const key = generateApiKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      id: newId('key'),
      account_id: accountId,
      key_hash: hashApiKey(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      last_four: key.slice(-4),
      name: name.name,
      created_by_user_id: options.createdByUserId ?? null,
    })
    .returning(['id', 'account_id', 'prefix', 'last_four', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, accountId: row.account_id, key, prefix: row.prefix, lastFour: row.last_four, createdAt: row.created_at };
}

/** A key as the dashboard lists it: never the key itself, which is not stored. */
export interface ListedApiKey {
  id: string;
  name: string | null;
  prefix: string;
  lastFour: string;
  createdAt: Date;
  /** Null for keys the operator made with the CLI, or whose maker has since been removed. */
  createdBy: { userId: string; email: string } | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The account's keys: working keys first, then revoked ones, each newest first. */
export async function listApiKeys(db: Db, accountId: string): Promise<ListedApiKey[]> {
  const rows = await db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.created_by_user_id')
    .select(['k.id', 'k.name', 'k.prefix', 'k.last_four', 'k.created_at', 'k.last_used_at', 'k.revoked_at', 'u.id as user_id', 'u.email'])
    .where('k.account_id', '=', accountId)
    .orderBy(sql`k.revoked_at is not null`)
    .orderBy('k.id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    lastFour: row.last_four,
    createdAt: row.created_at,
    createdBy: row.user_id !== null && row.email !== null ? { userId: row.user_id, email: row.email } : null,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  }));
}

/**
 * Returns the revoked key's id and time, or undefined when no such key exists. Revoking twice keeps the first
 * time. For the operator's CLI, which may revoke any key; the dashboard uses `revokeAccountApiKey`.
 */
export async function revokeApiKey(db: Db, keyId: string): Promise<{ id: string; revokedAt: Date } | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', keyId)
    .returning(['id', 'revoked_at'])
    .executeTakeFirst();
  return row ? { id: row.id, revokedAt: row.revoked_at! } : undefined;
}

/** Like `revokeApiKey`, limited to one account's keys: another account's key id is left alone (undefined). */
export async function revokeAccountApiKey(
  db: Db,
  input: { accountId: string; keyId: string },
): Promise<{ id: string; revokedAt: Date } | undefined> {
  // An id from a URL that is not even shaped like a key id names no key (and may hold what text cannot store).
  if (!API_KEY_ID.test(input.keyId)) return undefined;
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', input.keyId)
    .where('account_id', '=', input.accountId)
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

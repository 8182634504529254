import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/schema/index.js';
import type { UserRole } from '../db/schema/people.js';

/** How long sessions last; from config (`SESSION_IDLE_MINUTES`, `SESSION_MAX_DAYS`). */
export interface SessionLifetime {
  idleMs: number;
  maxMs: number;
}

export interface SignedInUser {
  userId: string;
  email: string;
  role: UserRole;
  accountId: string;
  accountName: string;
  plan: string;
}

export interface Session {
  /** SHA-256 of the cookie's token: what the table keys sessions by, and what CSRF tokens are derived from. */
  tokenHash: Buffer;
  user: SignedInUser;
  createdAt: Date;
}

/**
 * last_seen_at moves at most once a minute per session: a page with a dozen htmx requests writes one row, not
 * twelve, and the idle expiry is still exact to the minute.
 */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** 32 random bytes: the cookie's value. Only its hash is stored, so a database dump signs nobody in. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Starts a session for a user; returns the token for the cookie (the only place it exists). */
export async function createSession(
  db: Db,
  input: { userId: string; userAgent?: string; lifetime: SessionLifetime; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSessionToken();
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + input.lifetime.maxMs);
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashSessionToken(token),
      user_id: input.userId,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      // A label for "where am I signed in", never used for security decisions.
      user_agent: input.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return { token, expiresAt };
}

/**
 * The signed-in user behind a cookie token, or undefined when the session does not exist, is past its absolute
 * expiry, or has been idle longer than allowed. Touches last_seen_at (see LAST_SEEN_RESOLUTION_MS).
 */
export async function findSession(db: Db, token: string, lifetime: SessionLifetime, now = new Date()): Promise<Session | undefined> {
  if (token.length === 0 || token.length > 100) return undefined;
  const tokenHash = hashSessionToken(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'sessions.created_at',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'users.id as userId',
      'users.email',
      'users.role',
      'accounts.id as accountId',
      'accounts.name as accountName',
      'accounts.plan',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.expires_at.getTime() <= now.getTime() || row.last_seen_at.getTime() + lifetime.idleMs <= now.getTime()) {
    await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    return undefined;
  }
  if (now.getTime() - row.last_seen_at.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
  }
  return {
    tokenHash,
    createdAt: row.created_at,
    user: {
      userId: row.userId,
      email: row.email,
      role: row.role,
      accountId: row.accountId,
      accountName: row.accountName,
      plan: row.plan,
    },
  };
}

export async function endSession(db: Db, tokenHash: Buffer): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Signs a user out everywhere, except (optionally) the session making the request. Returns how many ended. */
export async function endAllSessions(db: Db, userId: string, options: { except?: Buffer } = {}): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (options.except) query = query.where('token_hash', '<>', options.except);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

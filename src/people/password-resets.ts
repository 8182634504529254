import { type ExpressionBuilder, sql } from 'kysely';
import type { DatabaseSchema, Db } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { ResetLinkInvalidError } from './errors.js';
import { clearLoginFailures } from './login-limit.js';
import { hashPassword } from './passwords.js';
import { hashLinkToken, isLinkTokenShaped, linkUrl, newLinkToken } from './tokens.js';
import { findUserByEmail, getUser, requireAcceptablePassword, setPasswordHash, type User } from './users.js';

/** An hour: enough to switch to the mail client and back; a link lying in a mailbox later is worth nothing. */
export const PASSWORD_RESET_LIFETIME_MS = 60 * 60 * 1000;

export interface CreatedPasswordReset {
  /** The one-time link; only its token's SHA-256 is stored. */
  url: string;
  expiresAt: Date;
  user: User;
}

/**
 * How often the public form mails one person a new link. Anyone may type anyone's address into it; without this,
 * a script could fill a person's inbox (and get our mail server listed as a source of spam). The link from the
 * first request keeps working for its hour, so a person who asks twice loses nothing.
 */
export const PASSWORD_RESET_MAIL_INTERVAL_MS = 5 * 60 * 1000;

/**
 * A reset link for the person with this email, or undefined when nobody has it, or, with `unlessLinkNewerThanMs`,
 * when the person already has an unused link made that recently (the public form: at most one mail per person per
 * PASSWORD_RESET_MAIL_INTERVAL_MS). The caller must answer all of these the same way ("if this address has an
 * account, a link is on its way"), or the form tells strangers who has an account. A new link replaces the
 * person's earlier ones.
 */
export async function createPasswordReset(
  db: Db,
  input: { email: string; siteUrl: string; now?: Date; unlessLinkNewerThanMs?: number },
): Promise<CreatedPasswordReset | undefined> {
  const user = await findUserByEmail(db, input.email);
  if (!user) return undefined;
  const now = input.now ?? new Date();
  const token = newLinkToken();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_LIFETIME_MS);
  const created = await inTransaction(db, async (trx) => {
    if (input.unlessLinkNewerThanMs !== undefined) {
      // The person's row is locked first, so requests arriving together are decided one after the other: one link.
      await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute();
      const recent = await trx
        .selectFrom('password_resets')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .where('created_at', '>', new Date(now.getTime() - input.unlessLinkNewerThanMs))
        .executeTakeFirst();
      if (recent) return false;
    }
    await trx.deleteFrom('password_resets').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
    await trx
      .insertInto('password_resets')
      .values({ token_hash: hashLinkToken(token), user_id: user.id, created_at: now, expires_at: expiresAt })
      .execute();
    return true;
  });
  return created ? { url: passwordResetUrl(input.siteUrl, token), expiresAt, user } : undefined;
}

export function passwordResetUrl(siteUrl: string, token: string): string {
  return linkUrl(siteUrl, 'passwordReset', token);
}

/** Whether a reset link can still be used (for showing the form, or an explanation instead of it). */
export async function isPasswordResetValid(db: Db, token: string, now = new Date()): Promise<boolean> {
  if (!isLinkTokenShaped(token)) return false;
  const row = await db
    .selectFrom('password_resets')
    .select('user_id')
    .where(isUsable(now))
    .where('token_hash', '=', hashLinkToken(token))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Sets a new password through a reset link, in one transaction that also marks the link used and ends every
 * session of the person: whoever knew the old password (the reason for many resets) is signed out everywhere.
 * The email's failed sign-ins are forgiven too, so the person can sign in at once. Throws ResetLinkInvalidError
 * (unknown, expired or used link) and UnacceptablePasswordError.
 */
export async function resetPassword(db: Db, input: { token: string; newPassword: string; now?: Date }): Promise<User> {
  requireAcceptablePassword(input.newPassword);
  const now = input.now ?? new Date();
  // A cheap look first, so a dead link does not cost a password hash; the locked read below decides.
  if (!(await isPasswordResetValid(db, input.token, now))) throw new ResetLinkInvalidError();
  const passwordHash = await hashPassword(input.newPassword);
  return inTransaction(db, async (trx) => {
    const reset = await trx
      .selectFrom('password_resets')
      .select('user_id')
      .where(isUsable(now))
      .where('token_hash', '=', hashLinkToken(input.token))
      .forUpdate()
      .executeTakeFirst();
    if (!reset) throw new ResetLinkInvalidError();
    await setPasswordHash(trx, reset.user_id, passwordHash);
    // This link is kept (used) until pruned; the person's other links die with the old password.
    await trx.updateTable('password_resets').set({ used_at: now }).where('token_hash', '=', hashLinkToken(input.token)).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', reset.user_id).where('used_at', 'is', null).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', reset.user_id).execute();
    const user = (await getUser(trx, reset.user_id))!;
    await clearLoginFailures(trx, { email: user.email });
    return user;
  });
}

/** Reset links that expired or were used over 30 days ago, for the pruning job; up to `limit`. */
export async function prunePasswordResets(db: Db, limit: number): Promise<number> {
  const result = await sql`
    delete from password_resets where token_hash in (
      select token_hash from password_resets
      where least(expires_at, used_at) < now() - interval '30 days'
      limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

function isUsable(now: Date) {
  return (eb: ExpressionBuilder<DatabaseSchema, 'password_resets'>) =>
    eb.and([eb('password_resets.used_at', 'is', null), eb('password_resets.expires_at', '>', now)]);
}
